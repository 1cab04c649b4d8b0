"""The 81 fans of Chinese Official mahjong, with the names and values of docs/rules-mcr.md.

One enum member per fan, in the rule book's order (largest first), so an
explanation lists fans the way a player reads the fan table.
"""
from __future__ import annotations

from enum import Enum


class Fan(Enum):
    def __init__(self, fan_name: str, value: int, zh: str, de: str) -> None:
        self.fan_name = fan_name
        self.value_ = value
        self.zh = zh
        self.de = de

    @property
    def points(self) -> int:
        return self.value_

    BIG_FOUR_WINDS = ("Big Four Winds", 88, "大四喜", "Große vier Winde")
    BIG_THREE_DRAGONS = ("Big Three Dragons", 88, "大三元", "Große drei Drachen")
    ALL_GREEN = ("All Green", 88, "绿一色", "Ganz grün")
    NINE_GATES = ("Nine Gates", 88, "九莲宝灯", "Neun Tore")
    FOUR_KONGS = ("Four Kongs", 88, "四杠", "Vier Kongs")
    SEVEN_SHIFTED_PAIRS = ("Seven Shifted Pairs", 88, "连七对", "Sieben verschobene Paare")
    THIRTEEN_ORPHANS = ("Thirteen Orphans", 88, "十三幺", "Dreizehn Waisen")
    ALL_TERMINALS = ("All Terminals", 64, "清幺九", "Nur Endziegel")
    LITTLE_FOUR_WINDS = ("Little Four Winds", 64, "小四喜", "Kleine vier Winde")
    LITTLE_THREE_DRAGONS = ("Little Three Dragons", 64, "小三元", "Kleine drei Drachen")
    ALL_HONORS = ("All Honors", 64, "字一色", "Nur Ehrenziegel")
    FOUR_CONCEALED_PUNGS = ("Four Concealed Pungs", 64, "四暗刻", "Vier verdeckte Pungs")
    PURE_TERMINAL_CHOWS = ("Pure Terminal Chows", 64, "一色双龙会", "Reine Endchows")
    QUADRUPLE_CHOW = ("Quadruple Chow", 48, "一色四同顺", "Vierfacher Chow")
    FOUR_PURE_SHIFTED_PUNGS = ("Four Pure Shifted Pungs", 48, "一色四节高", "Vier reine verschobene Pungs")
    FOUR_PURE_SHIFTED_CHOWS = ("Four Pure Shifted Chows", 32, "一色四步高", "Vier reine verschobene Chows")
    THREE_KONGS = ("Three Kongs", 32, "三杠", "Drei Kongs")
    ALL_TERMINALS_AND_HONORS = ("All Terminals and Honors", 32, "混幺九", "Nur End- und Ehrenziegel")
    SEVEN_PAIRS = ("Seven Pairs", 24, "七对", "Sieben Paare")
    GREATER_HONORS_AND_KNITTED_TILES = ("Greater Honors and Knitted Tiles", 24, "七星不靠", "Große Ehren und verstreute Ziegel")
    ALL_EVEN_PUNGS = ("All Even Pungs", 24, "全双刻", "Nur gerade Pungs")
    FULL_FLUSH = ("Full Flush", 24, "清一色", "Reine Farbe")
    PURE_TRIPLE_CHOW = ("Pure Triple Chow", 24, "一色三同顺", "Reiner dreifacher Chow")
    PURE_SHIFTED_PUNGS = ("Pure Shifted Pungs", 24, "一色三节高", "Reine verschobene Pungs")
    UPPER_TILES = ("Upper Tiles", 24, "全大", "Nur hohe Ziegel")
    MIDDLE_TILES = ("Middle Tiles", 24, "全中", "Nur mittlere Ziegel")
    LOWER_TILES = ("Lower Tiles", 24, "全小", "Nur niedrige Ziegel")
    PURE_STRAIGHT = ("Pure Straight", 16, "清龙", "Reine Straße")
    THREE_SUITED_TERMINAL_CHOWS = ("Three-Suited Terminal Chows", 16, "三色双龙会", "Dreifarbige Endchows")
    PURE_SHIFTED_CHOWS = ("Pure Shifted Chows", 16, "一色三步高", "Reine verschobene Chows")
    ALL_FIVE = ("All Five", 16, "全带五", "Überall Fünf")
    TRIPLE_PUNG = ("Triple Pung", 16, "三同刻", "Dreifacher Pung")
    THREE_CONCEALED_PUNGS = ("Three Concealed Pungs", 16, "三暗刻", "Drei verdeckte Pungs")
    LESSER_HONORS_AND_KNITTED_TILES = ("Lesser Honors and Knitted Tiles", 12, "全不靠", "Kleine Ehren und verstreute Ziegel")
    KNITTED_STRAIGHT = ("Knitted Straight", 12, "组合龙", "Verstreute Straße")
    UPPER_FOUR = ("Upper Four", 12, "大于五", "Größer als fünf")
    LOWER_FOUR = ("Lower Four", 12, "小于五", "Kleiner als fünf")
    BIG_THREE_WINDS = ("Big Three Winds", 12, "三风刻", "Drei Windpungs")
    MIXED_STRAIGHT = ("Mixed Straight", 8, "花龙", "Gemischte Straße")
    REVERSIBLE_TILES = ("Reversible Tiles", 8, "推不倒", "Umkehrbare Ziegel")
    MIXED_TRIPLE_CHOW = ("Mixed Triple Chow", 8, "三色三同顺", "Gemischter dreifacher Chow")
    MIXED_SHIFTED_PUNGS = ("Mixed Shifted Pungs", 8, "三色三节高", "Gemischte verschobene Pungs")
    CHICKEN_HAND = ("Chicken Hand", 8, "无番和", "Hühnerhand")
    LAST_TILE_DRAW = ("Last Tile Draw", 8, "妙手回春", "Letzter Ziegel gezogen")
    LAST_TILE_CLAIM = ("Last Tile Claim", 8, "海底捞月", "Letzter Ziegel beansprucht")
    OUT_WITH_REPLACEMENT_TILE = ("Out with Replacement Tile", 8, "杠上开花", "Mahjong mit Ersatzziegel")
    ROBBING_THE_KONG = ("Robbing The Kong", 8, "抢杠和", "Kong beraubt")
    ALL_PUNGS = ("All Pungs", 6, "碰碰和", "Nur Pungs")
    HALF_FLUSH = ("Half Flush", 6, "混一色", "Unreine Farbe")
    MIXED_SHIFTED_CHOWS = ("Mixed Shifted Chows", 6, "三色三步高", "Gemischte verschobene Chows")
    ALL_TYPES = ("All Types", 6, "五门齐", "Alle Arten")
    MELDED_HAND = ("Melded Hand", 6, "全求人", "Ganz gemeldete Hand")
    TWO_CONCEALED_KONGS = ("Two Concealed Kongs", 6, "双暗杠", "Zwei verdeckte Kongs")
    TWO_DRAGONS_PUNGS = ("Two Dragons Pungs", 6, "双箭刻", "Zwei Drachenpungs")
    OUTSIDE_HAND = ("Outside Hand", 4, "全带幺", "Außenhand")
    FULLY_CONCEALED_HAND = ("Fully Concealed Hand", 4, "不求人", "Ganz verdeckte Hand")
    TWO_MELDED_KONGS = ("Two Melded Kongs", 4, "双明杠", "Zwei offene Kongs")
    LAST_TILE = ("Last Tile", 4, "和绝张", "Letzter seiner Art")
    DRAGON_PUNG = ("Dragon Pung", 2, "箭刻", "Drachenpung")
    PREVALENT_WIND = ("Prevalent Wind", 2, "圈风刻", "Rundenwind")
    SEAT_WIND = ("Seat Wind", 2, "门风刻", "Platzwind")
    CONCEALED_HAND = ("Concealed Hand", 2, "门前清", "Verdeckte Hand")
    ALL_CHOWS = ("All Chows", 2, "平和", "Nur Chows")
    TILE_HOG = ("Tile Hog", 2, "四归一", "Vier gleiche Ziegel")
    DOUBLE_PUNG = ("Double Pung", 2, "双同刻", "Doppelter Pung")
    TWO_CONCEALED_PUNGS = ("Two Concealed Pungs", 2, "双暗刻", "Zwei verdeckte Pungs")
    CONCEALED_KONG = ("Concealed Kong", 2, "暗杠", "Verdeckter Kong")
    ALL_SIMPLES = ("All Simples", 2, "断幺", "Keine End- und Ehrenziegel")
    PURE_DOUBLE_CHOW = ("Pure Double Chow", 1, "一般高", "Reiner doppelter Chow")
    MIXED_DOUBLE_CHOW = ("Mixed Double Chow", 1, "喜相逢", "Gemischter doppelter Chow")
    SHORT_STRAIGHT = ("Short Straight", 1, "连六", "Kurze Straße")
    TWO_TERMINAL_CHOWS = ("Two Terminal Chows", 1, "老少副", "Zwei Endchows")
    PUNG_OF_TERMINALS_OR_HONORS = ("Pung of Terminals or Honors", 1, "幺九刻", "Pung aus End- oder Ehrenziegeln")
    MELDED_KONG = ("Melded Kong", 1, "明杠", "Offener Kong")
    ONE_VOIDED_SUIT = ("One Voided Suit", 1, "缺一门", "Eine Farbe fehlt")
    NO_HONORS = ("No Honors", 1, "无字", "Keine Ehrenziegel")
    EDGE_WAIT = ("Edge Wait", 1, "边张", "Randwarten")
    CLOSED_WAIT = ("Closed Wait", 1, "嵌张", "Lückenwarten")
    SINGLE_WAIT = ("Single Wait", 1, "单钓将", "Paarwarten")
    SELF_DRAWN = ("Self-Drawn", 1, "自摸", "Selbst gezogen")
    FLOWER_TILES = ("Flower Tiles", 1, "花牌", "Blumen")
    #: Not one of the 81: the combined kong fan some tables use (option
    #: ``kong_combination = "combined"``), as the reference calculator does.
    CONCEALED_KONG_AND_MELDED_KONG = ("Concealed Kong and Melded Kong", 5, "明暗杠", "Verdeckter und offener Kong")


#: The 81 fans of the rule book (the combined kong fan is an option, not one of them).
OFFICIAL_FANS = tuple(f for f in Fan if f is not Fan.CONCEALED_KONG_AND_MELDED_KONG)
assert len(OFFICIAL_FANS) == 81
