"""Real Mosquitto and real PostgreSQL for the club tests, on free localhost ports in temporary folders.

Skipped only when the binaries are missing (.ci/run installs the Debian
packages ``mosquitto`` and ``postgresql``). PostgreSQL refuses to run as
root, so as root the throwaway cluster runs as ``nobody``.
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt")
pytest.importorskip("psycopg")

REPO = Path(__file__).resolve().parents[2]
ACL_EXAMPLE = REPO / "club" / "mosquitto" / "acl"
CLUB = "testclub"
SERVICE_USER, SERVICE_PASSWORD = "club-service", "service-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def _mosquitto() -> str | None:
    return shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if os.path.exists(p)), None)


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def table_password(table: str) -> str:
    return f"pw-{table}"


def make_ca(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed CA made with the openssl CLI: (certificate, key)."""
    folder.mkdir(parents=True, exist_ok=True)
    crt, key = folder / f"{name}.crt", folder / f"{name}.key"
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", key, "-out", crt, "-days", "2", "-subj", f"/CN={name}",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    return crt, key


def make_server_cert(folder: Path, ca: tuple[Path, Path], host: str = "localhost") -> tuple[Path, Path]:
    """A server certificate for ``host`` (and 127.0.0.1) signed by ``ca``: (certificate, key)."""
    crt, key, csr, ext = (folder / "server.crt", folder / "server.key", folder / "server.csr",
                          folder / "server.ext")
    ext.write_text(f"subjectAltName=DNS:{host},IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                   "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    _openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", key, "-out", csr, "-subj", f"/CN={host}")
    _openssl("x509", "-req", "-in", csr, "-CA", ca[0], "-CAkey", ca[1], "-CAcreateserial", "-out", crt,
             "-days", "2", "-extfile", ext)
    return crt, key


def _openssl(*args) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        pytest.skip("the openssl command is not installed (Debian package openssl)")
    r = subprocess.run([tool, *map(str, args)], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"openssl {args[0]} failed: {r.stderr}")


class Broker:
    """One Mosquitto with the repository's example ACL (club id replaced), a user per table.

    With ``tls``, a second listener speaks TLS only, with a server
    certificate for localhost signed by a CA made here (``ca``): what
    club/mosquitto/mosquitto.conf describes for mqtts://.
    """

    def __init__(self, folder: Path, tables: list[str], tls: bool = False) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.tls_port = self.tls_url = self.ca = None
        self.proc: subprocess.Popen | None = None
        folder.mkdir(parents=True, exist_ok=True)
        passwd = folder / "passwd"
        passwd.write_text("")
        tool = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        for user, pw in [(SERVICE_USER, SERVICE_PASSWORD), *((t, table_password(t)) for t in tables)]:
            subprocess.run([tool, "-b", str(passwd), user, pw], check=True, capture_output=True)
        (folder / "acl").write_text(ACL_EXAMPLE.read_text().replace("myclub", CLUB))
        lines = [
            "per_listener_settings false", "allow_anonymous false",
            f"password_file {passwd}", f"acl_file {folder / 'acl'}",
            f"listener {self.port} 127.0.0.1",
            "persistence true", f"persistence_location {folder}/", "max_queued_messages 100000",
            f"log_dest file {folder / 'mosquitto.log'}", "log_type error", "log_type warning", "log_type notice",
        ]
        if tls:
            self.ca = make_ca(folder / "pki", "tablemate-test-ca")[0]
            cert, key = make_server_cert(folder / "pki", (self.ca, self.ca.with_suffix(".key")))
            self.tls_port = free_port()
            self.tls_url = f"mqtts://localhost:{self.tls_port}"
            lines += [f"listener {self.tls_port} 127.0.0.1", f"cafile {self.ca}", f"certfile {cert}",
                      f"keyfile {key}", "tls_version tlsv1.2"]
        if os.geteuid() == 0:
            lines.append("user root")
        (folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")
        for f in (passwd, folder / "acl"):
            os.chmod(f, 0o600)

    def start(self) -> None:
        self.proc = subprocess.Popen([_mosquitto(), "-c", str(self.folder / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)
        if self.tls_port:
            wait_port(self.tls_port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()  # SIGTERM: Mosquitto saves its persistence file
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def broker(tmp_path):
    if _mosquitto() is None:
        pytest.skip("mosquitto is not installed (Debian package mosquitto)")
    b = Broker(tmp_path / "mosquitto", [f"t{i:02d}" for i in range(1, 9)])
    b.start()
    yield b
    b.stop()


class Postgres:
    def __init__(self) -> None:
        bin_ = _pg_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="tablemate-pg-"))
        os.chmod(self.folder, 0o755)
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.folder, nobody.pw_uid, nobody.pw_gid)
            self.prefix = ["runuser", "-u", "nobody", "--"]
        data = self.folder / "data"
        self._run([str(bin_ / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync",
                   "-E", "UTF8", "--locale=C"])
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run([str(bin_ / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(self.folder / "pg.log"),
                   "-w", "-t", "60", "start"])
        self.bin = bin_
        self.data = data
        self.base = f"postgresql://postgres@127.0.0.1:{self.port}"

    def _run(self, cmd: list[str]) -> None:
        r = subprocess.run(self.prefix + cmd, capture_output=True, text=True, cwd=self.folder)
        if r.returncode:
            raise RuntimeError(f"{cmd[0]} failed: {r.stdout}\n{r.stderr}")

    def new_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.base + "/postgres", autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return f"{self.base}/{name}"

    def stop(self) -> None:
        subprocess.run(self.prefix + [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, cwd=self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    if _pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian package postgresql)")
    pg = Postgres()
    yield pg
    pg.stop()


_counter = iter(range(10**6))


@pytest.fixture
def db_url(postgres):
    return postgres.new_database(f"club_{os.getpid()}_{next(_counter)}")


class Service:
    """`tablemate club serve` as a real process, so a test can kill it."""

    def __init__(self, folder: Path, broker: Broker, db_url: str, board: bool = False, *,
                 mqtt: str | None = None, tls_ca: Path | None = None, wait: bool = True) -> None:
        self.folder, self.broker, self.db_url, self.board = folder, broker, db_url, board
        self.mqtt, self.tls_ca, self.wait = mqtt or broker.url, tls_ca, wait
        self.http_port = free_port()
        self.proc: subprocess.Popen | None = None
        self.runs = 0

    def start(self) -> None:
        self.runs += 1
        self.log = self.folder / f"service-{self.runs}.log"
        cmd = [sys.executable, "-m", "tablemate.cli.main", "club", "serve", "--mqtt", self.mqtt,
               "--db", self.db_url, "--club", CLUB, "--username", SERVICE_USER, "--password", SERVICE_PASSWORD]
        if self.tls_ca is not None:
            cmd += ["--tls-ca", str(self.tls_ca)]
        cmd += ["--http", f"127.0.0.1:{self.http_port}"] if self.board else ["--no-board"]
        env = {**os.environ, "TABLEMATE_LOG": "INFO"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(self.log, "w"), env=env)
        deadline = time.monotonic() + 30
        while self.wait and "subscribed" not in self.log.read_text():
            if self.proc.poll() is not None:
                raise RuntimeError("club serve exited:\n" + self.log.read_text())
            if time.monotonic() > deadline:
                raise TimeoutError("club serve did not subscribe:\n" + self.log.read_text())
            time.sleep(0.05)
        if self.board:
            wait_port(self.http_port)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def logs(self) -> str:
        return "".join((self.folder / f"service-{i}.log").read_text() for i in range(1, self.runs + 1))


@pytest.fixture
def service(tmp_path, broker, db_url):
    s = Service(tmp_path, broker, db_url)
    s.start()
    yield s
    s.stop()
