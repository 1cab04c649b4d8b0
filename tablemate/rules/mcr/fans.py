"""The 81 fans of Chinese Official mahjong, with the names and values of docs/rules-mcr.md.

One enum member per fan, in the rule book's order (largest first), so an
explanation lists fans the way a player reads the fan table. Each keeps its
English name (what the JSON prints) and the official Chinese one (data of
the rule book, not a translation); the names players read in their own
language are in the gettext catalogs, msgctxt ``mcr.fan``
(docs/translations.md), read from this file by tablemate/locale/extract.py.
"""
from __future__ import annotations

from enum import Enum


class Fan(Enum):
    def __init__(self, fan_name: str, value: int, zh: str) -> None:
        self.fan_name = fan_name
        self.value_ = value
        self.zh = zh

    @property
    def points(self) -> int:
        return self.value_

    BIG_FOUR_WINDS = ("Big Four Winds", 88, "大四喜")
    BIG_THREE_DRAGONS = ("Big Three Dragons", 88, "大三元")
    ALL_GREEN = ("All Green", 88, "绿一色")
    NINE_GATES = ("Nine Gates", 88, "九莲宝灯")
    FOUR_KONGS = ("Four Kongs", 88, "四杠")
    SEVEN_SHIFTED_PAIRS = ("Seven Shifted Pairs", 88, "连七对")
    THIRTEEN_ORPHANS = ("Thirteen Orphans", 88, "十三幺")
    ALL_TERMINALS = ("All Terminals", 64, "清幺九")
    LITTLE_FOUR_WINDS = ("Little Four Winds", 64, "小四喜")
    LITTLE_THREE_DRAGONS = ("Little Three Dragons", 64, "小三元")
    ALL_HONORS = ("All Honors", 64, "字一色")
    FOUR_CONCEALED_PUNGS = ("Four Concealed Pungs", 64, "四暗刻")
    PURE_TERMINAL_CHOWS = ("Pure Terminal Chows", 64, "一色双龙会")
    QUADRUPLE_CHOW = ("Quadruple Chow", 48, "一色四同顺")
    FOUR_PURE_SHIFTED_PUNGS = ("Four Pure Shifted Pungs", 48, "一色四节高")
    FOUR_PURE_SHIFTED_CHOWS = ("Four Pure Shifted Chows", 32, "一色四步高")
    THREE_KONGS = ("Three Kongs", 32, "三杠")
    ALL_TERMINALS_AND_HONORS = ("All Terminals and Honors", 32, "混幺九")
    SEVEN_PAIRS = ("Seven Pairs", 24, "七对")
    GREATER_HONORS_AND_KNITTED_TILES = ("Greater Honors and Knitted Tiles", 24, "七星不靠")
    ALL_EVEN_PUNGS = ("All Even Pungs", 24, "全双刻")
    FULL_FLUSH = ("Full Flush", 24, "清一色")
    PURE_TRIPLE_CHOW = ("Pure Triple Chow", 24, "一色三同顺")
    PURE_SHIFTED_PUNGS = ("Pure Shifted Pungs", 24, "一色三节高")
    UPPER_TILES = ("Upper Tiles", 24, "全大")
    MIDDLE_TILES = ("Middle Tiles", 24, "全中")
    LOWER_TILES = ("Lower Tiles", 24, "全小")
    PURE_STRAIGHT = ("Pure Straight", 16, "清龙")
    THREE_SUITED_TERMINAL_CHOWS = ("Three-Suited Terminal Chows", 16, "三色双龙会")
    PURE_SHIFTED_CHOWS = ("Pure Shifted Chows", 16, "一色三步高")
    ALL_FIVE = ("All Five", 16, "全带五")
    TRIPLE_PUNG = ("Triple Pung", 16, "三同刻")
    THREE_CONCEALED_PUNGS = ("Three Concealed Pungs", 16, "三暗刻")
    LESSER_HONORS_AND_KNITTED_TILES = ("Lesser Honors and Knitted Tiles", 12, "全不靠")
    KNITTED_STRAIGHT = ("Knitted Straight", 12, "组合龙")
    UPPER_FOUR = ("Upper Four", 12, "大于五")
    LOWER_FOUR = ("Lower Four", 12, "小于五")
    BIG_THREE_WINDS = ("Big Three Winds", 12, "三风刻")
    MIXED_STRAIGHT = ("Mixed Straight", 8, "花龙")
    REVERSIBLE_TILES = ("Reversible Tiles", 8, "推不倒")
    MIXED_TRIPLE_CHOW = ("Mixed Triple Chow", 8, "三色三同顺")
    MIXED_SHIFTED_PUNGS = ("Mixed Shifted Pungs", 8, "三色三节高")
    CHICKEN_HAND = ("Chicken Hand", 8, "无番和")
    LAST_TILE_DRAW = ("Last Tile Draw", 8, "妙手回春")
    LAST_TILE_CLAIM = ("Last Tile Claim", 8, "海底捞月")
    OUT_WITH_REPLACEMENT_TILE = ("Out with Replacement Tile", 8, "杠上开花")
    ROBBING_THE_KONG = ("Robbing The Kong", 8, "抢杠和")
    ALL_PUNGS = ("All Pungs", 6, "碰碰和")
    HALF_FLUSH = ("Half Flush", 6, "混一色")
    MIXED_SHIFTED_CHOWS = ("Mixed Shifted Chows", 6, "三色三步高")
    ALL_TYPES = ("All Types", 6, "五门齐")
    MELDED_HAND = ("Melded Hand", 6, "全求人")
    TWO_CONCEALED_KONGS = ("Two Concealed Kongs", 6, "双暗杠")
    TWO_DRAGONS_PUNGS = ("Two Dragons Pungs", 6, "双箭刻")
    OUTSIDE_HAND = ("Outside Hand", 4, "全带幺")
    FULLY_CONCEALED_HAND = ("Fully Concealed Hand", 4, "不求人")
    TWO_MELDED_KONGS = ("Two Melded Kongs", 4, "双明杠")
    LAST_TILE = ("Last Tile", 4, "和绝张")
    DRAGON_PUNG = ("Dragon Pung", 2, "箭刻")
    PREVALENT_WIND = ("Prevalent Wind", 2, "圈风刻")
    SEAT_WIND = ("Seat Wind", 2, "门风刻")
    CONCEALED_HAND = ("Concealed Hand", 2, "门前清")
    ALL_CHOWS = ("All Chows", 2, "平和")
    TILE_HOG = ("Tile Hog", 2, "四归一")
    DOUBLE_PUNG = ("Double Pung", 2, "双同刻")
    TWO_CONCEALED_PUNGS = ("Two Concealed Pungs", 2, "双暗刻")
    CONCEALED_KONG = ("Concealed Kong", 2, "暗杠")
    ALL_SIMPLES = ("All Simples", 2, "断幺")
    PURE_DOUBLE_CHOW = ("Pure Double Chow", 1, "一般高")
    MIXED_DOUBLE_CHOW = ("Mixed Double Chow", 1, "喜相逢")
    SHORT_STRAIGHT = ("Short Straight", 1, "连六")
    TWO_TERMINAL_CHOWS = ("Two Terminal Chows", 1, "老少副")
    PUNG_OF_TERMINALS_OR_HONORS = ("Pung of Terminals or Honors", 1, "幺九刻")
    MELDED_KONG = ("Melded Kong", 1, "明杠")
    ONE_VOIDED_SUIT = ("One Voided Suit", 1, "缺一门")
    NO_HONORS = ("No Honors", 1, "无字")
    EDGE_WAIT = ("Edge Wait", 1, "边张")
    CLOSED_WAIT = ("Closed Wait", 1, "嵌张")
    SINGLE_WAIT = ("Single Wait", 1, "单钓将")
    SELF_DRAWN = ("Self-Drawn", 1, "自摸")
    FLOWER_TILES = ("Flower Tiles", 1, "花牌")
    #: Not one of the 81: the combined kong fan some tables use (option
    #: ``kong_combination = "combined"``), as the reference calculator does.
    CONCEALED_KONG_AND_MELDED_KONG = ("Concealed Kong and Melded Kong", 5, "明暗杠")


#: The 81 fans of the rule book (the combined kong fan is an option, not one of them).
OFFICIAL_FANS = tuple(f for f in Fan if f is not Fan.CONCEALED_KONG_AND_MELDED_KONG)
assert len(OFFICIAL_FANS) == 81
