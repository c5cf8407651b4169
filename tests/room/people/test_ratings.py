"""Ratings on both databases: winners up and losers down, partners
together, upsets, bots as fixed anchors, three teams, guests never rated,
idempotence, draws, the history and the leaderboard."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from trumps.room.people import ratings
from trumps.room.people.ratings import (
    BOT_RATINGS,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    SeatEntry,
    display_of,
    history,
    leaderboard,
    rate_game,
    rating,
    ratings_of,
)
from trumps.room.storage.db import Player, RatingHistoryRow, RatingRow
from trumps.room.storage.store import Store


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()


def account(store: Store, name: str) -> str:
    """A player with a username (an account)."""
    pid = store.create_player(name)
    with store.sessions.begin() as s:
        row = s.get(Player, pid)
        assert row is not None
        row.username_key = name.lower()
    return pid


def table(store: Store, host: str) -> str:
    return store.create_table("500", None, {}, 1, host, 4)


def human(pid: str, team: int) -> SeatEntry:
    return {"player": pid, "bot": None, "team": team}


def bot(kind: str, team: int) -> SeatEntry:
    return {"player": None, "bot": kind, "team": team}


def set_rating(store: Store, pid: str, mu: float, sigma: float, game: str = "500", games: int = 5) -> None:
    with store.sessions.begin() as s:
        s.add(RatingRow(player_id=pid, game=game, mu=mu, sigma=sigma, games=games, updated=0.0))


def stored(store: Store, game: str = "500") -> dict[str, tuple[float, float, int]]:
    with store.sessions() as s:
        rows = s.scalars(select(RatingRow).where(RatingRow.game == game))
        return {r.player_id: (r.mu, r.sigma, r.games) for r in rows}


def history_rows(store: Store) -> int:
    with store.sessions() as s:
        return int(s.scalar(select(func.count()).select_from(RatingHistoryRow)) or 0)


def two_v_two(
    store: Store, a: list[str], b: list[str], winner: int | None = 0, at: float = 1.0
) -> dict[str, tuple[float, float]]:
    """A 500 game: a[0], b[0], a[1], b[1] round the table, team 0 against team 1."""
    tid = table(store, a[0])
    seats = [human(a[0], 0), human(b[0], 1), human(a[1], 0), human(b[1], 1)]
    scores = [510, 230] if winner == 0 else [230, 510] if winner == 1 else [300, 300]
    return rate_game(store, tid, "500", seats, scores, winner, at)


def rival(store: Store) -> str:
    """A new account to sit across the table: a game moves ratings only
    between people on two sides (issue 29), bots fill the other seats."""
    with store.sessions() as s:
        n = s.scalar(select(func.count()).select_from(Player))
    return account(store, f"Rival {n}")


def with_bots(
    store: Store, pid: str, partner: str, opponents: str, won: bool, game: str = "500", at: float = 1.0
) -> tuple[float, float]:
    """``pid`` and a ``partner`` bot against an ``opponents`` bot and a new
    account (a newcomer, new at every call); the player's new rating."""
    tid = table(store, pid)
    other = rival(store)
    seats = [human(pid, 0), bot(opponents, 1), bot(partner, 0), human(other, 1)]
    out = rate_game(store, tid, game, seats, [510, 120] if won else [120, 510], 0 if won else 1, at)
    assert set(out) == {pid, other}
    return out[pid]


def accounts_of(pids: list[str] | set[str], rows: dict[str, tuple[float, float, int]]) -> set[str]:
    """Of ``rows`` (stored ratings), those of ``pids``."""
    return {p for p in rows if p in pids}


# ----- the displayed number ----------------------------------------------------------------
def test_display_formula() -> None:
    assert display_of(DEFAULT_MU, DEFAULT_SIGMA) == 1000
    assert display_of(25.0, 2.0) == 1000 + 40 * 19
    assert display_of(20.0, 5.0) == 1000 + 40 * 5
    assert display_of(10.0, 5.0) == 800  # below the new player's 1000: may go lower still
    assert ratings.MODEL.mu == 25.0 and ratings.MODEL.sigma == pytest.approx(25 / 3)
    assert ratings.MODEL.beta == pytest.approx(25 / 6) and ratings.MODEL.tau == pytest.approx(25 / 300)


# ----- who goes up and down ----------------------------------------------------------------
def test_winners_go_up_losers_go_down(store: Store) -> None:
    a1, a2, b1, b2 = (account(store, n) for n in ("Ann", "Bob", "Cy", "Di"))
    out = two_v_two(store, [a1, a2], [b1, b2], winner=0, at=5.0)
    assert set(out) == {a1, a2, b1, b2}
    for pid in (a1, a2):
        assert out[pid][0] > DEFAULT_MU
    for pid in (b1, b2):
        assert out[pid][0] < DEFAULT_MU
    for _mu, sigma in out.values():
        assert sigma < DEFAULT_SIGMA  # every game teaches the model something
    # partners with the same rating move the same way by the same amount
    assert out[a1] == pytest.approx(out[a2]) and out[b1] == pytest.approx(out[b2])
    # equal teams: what one side gains the other loses
    assert out[a1][0] - DEFAULT_MU == pytest.approx(DEFAULT_MU - out[b1][0])
    rows = stored(store)
    assert rows == {pid: (mu, sigma, 1) for pid, (mu, sigma) in out.items()}
    assert history_rows(store) == 4
    r = rating(store, a1, "500")
    assert r == {"mu": out[a1][0], "sigma": out[a1][1], "display": display_of(*out[a1]), "games": 1}
    assert (
        r["display"] > 1000 > rating(store, b1, "500")["display"]
    )  # one game: the loser shows less than new
    with store.sessions() as s:
        row = s.get(RatingRow, (a1, "500"))
        assert row is not None and row.updated == 5.0


def test_partners_move_together_and_the_uncertain_one_more(store: Store) -> None:
    """Two humans partnered against a bot and a person both lose; the one
    the model knows less about (larger sigma) moves more."""
    known, new = account(store, "Known"), account(store, "New")
    set_rating(store, known, 28.0, 2.0)
    tid = table(store, known)
    seats = [human(known, 0), bot("normal", 1), human(new, 0), human(rival(store), 1)]
    out = rate_game(store, tid, "500", seats, [150, 520], 1, 1.0)
    assert out[known][0] < 28.0 and out[new][0] < DEFAULT_MU
    assert DEFAULT_MU - out[new][0] > 28.0 - out[known][0] > 0
    assert stored(store)[known][2] == 6  # 5 games before this one


def test_an_upset_moves_more_than_an_expected_win(store: Store) -> None:
    weak = [account(store, n) for n in ("W1", "W2")]
    strong = [account(store, n) for n in ("S1", "S2")]
    weak2 = [account(store, n) for n in ("W3", "W4")]
    strong2 = [account(store, n) for n in ("S3", "S4")]
    for pid in weak + weak2:
        set_rating(store, pid, 20.0, 3.0)
    for pid in strong + strong2:
        set_rating(store, pid, 30.0, 3.0)
    upset = two_v_two(store, weak, strong, winner=0)
    expected = two_v_two(store, strong2, weak2, winner=0)
    upset_gain = upset[weak[0]][0] - 20.0
    expected_gain = expected[strong2[0]][0] - 30.0
    assert upset_gain > expected_gain > 0
    assert 30.0 - upset[strong[0]][0] > 20.0 - expected[weak2[0]][0] > 0


# ----- bots ----------------------------------------------------------------------------------
def test_bots_are_anchors_never_stored(store: Store) -> None:
    before = copy.deepcopy(BOT_RATINGS)
    p_random, p_strong, p_rules = (account(store, n) for n in ("Vs random", "Vs strong", "Vs rules"))
    vs_random = with_bots(store, p_random, "easy", "random", won=True)
    vs_strong = with_bots(store, p_strong, "easy", "strong", won=True)
    assert vs_strong[0] - DEFAULT_MU > vs_random[0] - DEFAULT_MU > 0
    # "rules" is "easy": the same game gives the same rating
    assert with_bots(store, p_rules, "rules", "random", won=True) == pytest.approx(vs_random)
    assert before == BOT_RATINGS
    rows = stored(store)
    assert accounts_of({p_random, p_strong, p_rules}, rows) == {p_random, p_strong, p_rules}
    assert len(rows) == 6  # only the accounts: the three and their rivals
    assert history_rows(store) == 6
    # the order of the reference ratings is the bots' measured order
    order = ["random", "easy", "normal", "strong"]
    assert [BOT_RATINGS[k][0] for k in order] == sorted(BOT_RATINGS[k][0] for k in order)
    assert all(sigma <= 1.0 for _, sigma in BOT_RATINGS.values())


def test_losing_to_strong_bots_costs_less_than_losing_to_random(store: Store) -> None:
    p1, p2 = account(store, "One"), account(store, "Two")
    vs_strong = with_bots(store, p1, "easy", "strong", won=False)
    vs_random = with_bots(store, p2, "easy", "random", won=False)
    assert DEFAULT_MU - vs_random[0] > DEFAULT_MU - vs_strong[0] > 0


def test_an_unknown_bot_kind_plays_as_an_unrated_newcomer(store: Store) -> None:
    """A ``module:Class`` bot has no reference rating: it takes the
    new-player rating, exactly as a guest does."""
    p1, p2 = account(store, "One"), account(store, "Two")
    guest = store.create_player("Guest")
    a = with_bots(store, p1, "some.module:Bot", "easy", won=True)
    tid = table(store, p2)
    other = rival(store)
    seats = [human(p2, 0), bot("easy", 1), human(guest, 0), human(other, 1)]
    b = rate_game(store, tid, "500", seats, [510, 120], 0, 1.0)
    assert set(b) == {p2, other} and b[p2] == pytest.approx(a)


# ----- three teams and 3v3 --------------------------------------------------------------------
def test_three_teams_ranked_by_score(store: Store) -> None:
    ids = [account(store, f"P{i}") for i in range(6)]
    tid = store.create_table("500", None, {}, 1, ids[0], 6)
    # seats round the table: teams 0, 1, 2, 0, 1, 2
    seats = [human(ids[i], i % 3) for i in range(6)]
    out = rate_game(store, tid, "500", seats, [140, 520, -60], 1, 1.0)
    first, second, third = out[ids[1]][0], out[ids[0]][0], out[ids[2]][0]
    assert first > DEFAULT_MU and third < DEFAULT_MU
    assert first > second > third  # the middle team between
    for i in range(3):
        assert out[ids[i]] == pytest.approx(out[ids[i + 3]])  # partners alike


def test_three_teams_the_winner_first_even_below_another_score(store: Store) -> None:
    """The winner is ranked first whatever the scores (in 500 a team that
    makes its bid can win while another has more points); equal scores
    of the others share a rank."""
    ids = [account(store, f"P{i}") for i in range(6)]
    tid = store.create_table("500", None, {}, 1, ids[0], 6)
    seats = [human(ids[i], i % 3) for i in range(6)]
    out = rate_game(store, tid, "500", seats, [300, 510, 510], 0, 1.0)
    assert out[ids[0]][0] > DEFAULT_MU
    assert out[ids[1]] == pytest.approx(out[ids[2]])  # tied second
    assert out[ids[1]][0] < DEFAULT_MU


def test_three_against_three(store: Store) -> None:
    ids = [account(store, f"P{i}") for i in range(6)]
    tid = store.create_table("500", None, {}, 1, ids[0], 6)
    seats = [human(ids[i], i % 2) for i in range(6)]
    out = rate_game(store, tid, "500", seats, [520, 100], 0, 1.0)
    assert all(out[ids[i]][0] > DEFAULT_MU for i in (0, 2, 4))
    assert all(out[ids[i]][0] < DEFAULT_MU for i in (1, 3, 5))


# ----- guests ----------------------------------------------------------------------------------
def test_guests_are_never_rated_nor_listed(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    guests = [store.create_player(f"Guest {i}") for i in range(3)]
    tid = table(store, ann)
    seats = [human(ann, 0), human(guests[0], 1), human(guests[1], 0), human(bob, 1)]
    out = rate_game(store, tid, "500", seats, [510, 100], 0, 1.0)
    assert set(out) == {ann, bob} and out[ann][0] > DEFAULT_MU
    assert set(stored(store)) == {ann, bob}
    assert history_rows(store) == 2
    assert [r["player"] for r in leaderboard(store, "500")] == [ann, bob]
    assert rating(store, guests[0], "500")["games"] == 0 and ratings_of(store, guests[0]) == {}
    # a game of guests and bots alone changes nothing; nor one person with guests and bots on one side
    tid = table(store, guests[0])
    seats = [human(guests[0], 0), bot("easy", 1), human(guests[1], 0), bot("easy", 1)]
    assert rate_game(store, tid, "500", seats, [510, 100], 0, 2.0) == {}
    tid = table(store, ann)
    seats = [human(ann, 0), human(guests[0], 1), bot("easy", 0), human(guests[1], 1)]
    assert rate_game(store, tid, "500", seats, [510, 100], 0, 3.0) == {}
    assert set(stored(store)) == {ann, bob} and history_rows(store) == 2


def test_a_guest_with_a_planted_rating_is_still_not_listed(store: Store) -> None:
    """Even a stray rating row (none is ever written for a guest) does not
    put a guest on the leaderboard."""
    guest = store.create_player("Guest")
    set_rating(store, guest, 40.0, 1.0)
    assert leaderboard(store, "500") == []


# ----- idempotence, draws, nothing to rate ------------------------------------------------------------
def test_rating_a_table_twice_changes_nothing(store: Store) -> None:
    a1, a2, b1, b2 = (account(store, n) for n in ("Ann", "Bob", "Cy", "Di"))
    tid = table(store, a1)
    seats = [human(a1, 0), human(b1, 1), human(a2, 0), human(b2, 1)]
    first = rate_game(store, tid, "500", seats, [510, 200], 0, 1.0)
    assert len(first) == 4
    before, rows = stored(store), history_rows(store)
    assert rate_game(store, tid, "500", seats, [510, 200], 0, 2.0) == {}
    assert rate_game(store, tid, "500", seats, [200, 510], 1, 3.0) == {}  # even with another result
    assert stored(store) == before and history_rows(store) == rows == 4


def test_a_draw_ranks_every_team_equal(store: Store) -> None:
    a1, a2, b1, b2 = (account(store, n) for n in ("Ann", "Bob", "Cy", "Di"))
    out = two_v_two(store, [a1, a2], [b1, b2], winner=None)
    for mu, sigma in out.values():  # equal teams, a draw: no one moves, all are better known
        assert mu == pytest.approx(DEFAULT_MU) and sigma < DEFAULT_SIGMA
    # a draw against a stronger team is worth something
    weak = [account(store, n) for n in ("W1", "W2")]
    strong = [account(store, n) for n in ("S1", "S2")]
    for pid in strong:
        set_rating(store, pid, 30.0, 3.0)
    out = two_v_two(store, weak, strong, winner=None, at=2.0)
    assert out[weak[0]][0] > DEFAULT_MU and out[strong[0]][0] < 30.0


def test_fewer_than_two_teams_changes_nothing(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    tid = table(store, ann)
    empty: SeatEntry = {"player": None, "bot": None, "team": 1}
    one_team = [human(ann, 0), empty, human(bob, 0), empty]
    assert rate_game(store, tid, "500", one_team, [510, 0], 0, 1.0) == {}
    assert stored(store) == {} and history_rows(store) == 0
    # one human against one bot is not a game between people
    assert rate_game(store, tid, "500", [human(ann, 0), bot("easy", 1), empty, empty], [510, 0], 0, 1.0) == {}
    # empty seats are skipped: one human against another still rates
    out = rate_game(store, tid, "500", [human(ann, 0), human(bob, 1), empty, empty], [510, 0], 0, 1.0)
    assert set(out) == {ann, bob}


def test_bad_input_is_refused_before_anything_is_written(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    tid = table(store, ann)
    good = [human(ann, 0), human(bob, 1)]
    with pytest.raises(ValueError, match="team must be an index"):
        rate_game(store, tid, "500", [human(ann, 0), human(bob, 2)], [1, 2], 0, 1.0)
    with pytest.raises(ValueError, match="holds two seats"):
        rate_game(store, tid, "500", [human(ann, 0), human(ann, 1)], [1, 2], 0, 1.0)
    with pytest.raises(ValueError, match="winner 2"):
        rate_game(store, tid, "500", good, [1, 2], 2, 1.0)
    with pytest.raises(ValueError, match="no table"):
        rate_game(store, "nope", "500", good, [1, 2], 0, 1.0)
    assert stored(store) == {} and history_rows(store) == 0


# ----- reading ratings back ----------------------------------------------------------------
def test_rating_defaults_and_ratings_of(store: Store) -> None:
    ann = account(store, "Ann")
    new = {"mu": DEFAULT_MU, "sigma": DEFAULT_SIGMA, "display": 1000, "games": 0}
    assert rating(store, ann, "500") == new
    assert rating(store, "nobody", "bridge") == new
    assert ratings_of(store, ann) == {}
    with_bots(store, ann, "easy", "easy", won=True, game="500")
    with_bots(store, ann, "easy", "easy", won=False, game="coinche")
    mine = ratings_of(store, ann)
    assert list(mine) == ["500", "coinche"]
    assert mine["500"] == rating(store, ann, "500") and mine["500"]["games"] == 1
    assert mine["500"]["mu"] > DEFAULT_MU > mine["coinche"]["mu"]
    assert rating(store, ann, "bridge") == new


def test_history_one_entry_per_game_oldest_first(store: Store) -> None:
    ann = account(store, "Ann")
    results = [
        with_bots(store, ann, "easy", "easy", won=w, at=t)
        for t, w in ((10.0, True), (20.0, True), (30.0, False))
    ]
    with_bots(store, ann, "easy", "easy", won=True, game="bridge", at=15.0)  # another game: its own history
    h = history(store, ann, "500")
    assert [e["at"] for e in h] == [10.0, 20.0, 30.0]
    assert [(e["mu"], e["sigma"]) for e in h] == [pytest.approx(r) for r in results]
    assert [e["display"] for e in h] == [display_of(*r) for r in results]
    assert len({e["table"] for e in h}) == 3
    assert [e["at"] for e in history(store, ann, "500", limit=2)] == [20.0, 30.0]  # the last two
    assert [e["at"] for e in history(store, ann, "500", limit=0)] == [30.0]  # clamped to 1
    assert [e["at"] for e in history(store, ann, "bridge")] == [15.0]
    assert history(store, ann, "coinche") == []
    assert rating(store, ann, "500")["games"] == 3


def test_leaderboard_order_ranks_and_filters(store: Store) -> None:
    ids = {name: account(store, name) for name in ("Ann", "Bob", "Cy", "Di", "Ed")}
    set_rating(store, ids["Ann"], 30.0, 2.0, games=10)  # 30 - 6 = 24
    set_rating(store, ids["Bob"], 35.0, 5.0, games=3)  # 20: a higher mu, less sure
    set_rating(store, ids["Cy"], 27.0, 1.0, games=40)  # 24, more games than Ann
    set_rating(store, ids["Di"], 26.0, 1.0, games=1)  # 23
    set_rating(store, ids["Ed"], 50.0, 1.0, game="bridge")  # another game
    board = leaderboard(store, "500")
    assert [r["name"] for r in board] == ["Cy", "Ann", "Di", "Bob"]
    assert [r["rank"] for r in board] == [1, 1, 3, 4]  # the same number shares a rank
    assert board[0] == {"rank": 1, "player": ids["Cy"], "name": "Cy", "display": 1960, "games": 40}
    assert [r["display"] for r in board] == [1960, 1960, 1920, 1800]
    assert [r["name"] for r in leaderboard(store, "500", min_games=5)] == ["Cy", "Ann"]
    assert [r["name"] for r in leaderboard(store, "500", limit=2)] == ["Cy", "Ann"]
    assert [r["name"] for r in leaderboard(store, "500", limit=0)] == ["Cy"]  # clamped to 1
    assert [r["name"] for r in leaderboard(store, "500", limit=-5)] == ["Cy"]
    assert [r["name"] for r in leaderboard(store, "bridge")] == ["Ed"]
    assert leaderboard(store, "coinche") == []


def test_leaderboard_limit_clamped_to_200(store: Store) -> None:
    with store.sessions.begin() as s:
        for i in range(205):
            pid = f"p{i:03d}"
            s.add(Player(id=pid, name=f"Player {i:03d}", created=0.0, username_key=f"player{i:03d}"))
            s.flush()
            s.add(RatingRow(player_id=pid, game="500", mu=20.0 + i / 10, sigma=2.0, games=1, updated=0.0))
    board = leaderboard(store, "500", limit=10_000)
    assert len(board) == ratings.MAX_LIMIT == 200
    assert board[0]["player"] == "p204" and board[-1]["player"] == "p005"
    assert [r["display"] for r in board] == sorted((r["display"] for r in board), reverse=True)
