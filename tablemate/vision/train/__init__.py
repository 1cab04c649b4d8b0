"""Training the vision models (needs the ``train`` extra and torch; imported lazily).

    python -m tablemate.vision.train.data --out /tmp/tm_data          # render datasets
    python -m tablemate.vision.train.fit reader   --data /tmp/tm_data  # train + export
    python -m tablemate.vision.train.fit detector --data /tmp/tm_data
"""
