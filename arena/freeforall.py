"""TrueSkill for a free-for-all of single-player teams, on plain floats.

The ``trueskill`` package rates a match by building a factor graph of objects
(variables, factors, a dictionary of messages per variable) and passing
Gaussian messages along it. Every match of a run is the same kind of graph:
one player per team, weight 1, a chain of team differences. This module passes
the same messages in the same order with the same float operations, held in
flat lists instead of objects, so it returns the package's ratings to the last
bit (``tests/test_ratings.py`` compares the two on 1,840 matches) at a
fraction of the cost (``benchmarks/bench_driver.py`` (l)).

Ratings are ``(pi, tau)`` pairs: precision and precision-adjusted mean, as
TrueSkill holds them. Where the package's float backend gives up (a far weaker
player beating a far stronger one), :func:`rate` raises the same kind of
``ArithmeticError``, and the caller falls back on the package's mpmath backend.
The normal distribution's functions are the package's own float backend, so
that no formula is written twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from trueskill import TrueSkill as _Environment
from trueskill import backends, calc_draw_margin

_cdf = backends.cdf
_pdf = backends.pdf
_INF = float("inf")
MIN_DELTA = 0.0001
"""The package's default convergence threshold of the message-passing loop."""
_Var = list[float]
"""A variable's value, or a message to it: ``[pi, tau]``."""
ROUNDS = 10
"""The package's cap on passes over the chain of team differences."""
_SQRT2 = 1 * math.sqrt(2)
"""The package's ``cdf`` divides by ``sigma * math.sqrt(2)`` with ``sigma`` 1."""
_PDF_SCALE = 1 / math.sqrt(2 * math.pi) * abs(1)
"""The package's ``pdf`` multiplies by ``1 / math.sqrt(2 * math.pi) * abs(sigma)``."""


class _Unusual(Exception):
    """A zero precision on the written-out path: the general passes take the match."""


class Rater:
    """Rates free-for-all matches in one TrueSkill environment (its beta, tau and draw rate)."""

    def __init__(self, beta: float, tau: float, draw_probability: float) -> None:
        self.beta = beta
        self.tau = tau
        self.variance = beta**2
        self.draw_margin = _draw_margin(beta, draw_probability)
        environment = _Environment(beta=beta, tau=tau, draw_probability=draw_probability)
        self._v_draw = environment.v_draw
        self._w_draw = environment.w_draw

    def rate(self, ratings: Sequence[tuple[float, float]],
             ranks: Sequence[int]) -> list[tuple[float, float]]:
        """The players' ``(pi, tau)`` after a match in which they finished at ``ranks``
        (0 is first, equal ranks tie), in the order given.

        Raises ``ArithmeticError`` (``FloatingPointError`` or ``ZeroDivisionError``)
        exactly where the package's float backend does.
        """
        n = len(ratings)
        if n < 2 or len(ranks) != n:
            raise ValueError("a match needs two players or more, and one rank per player")
        order = sorted(range(n), key=ranks.__getitem__)
        sorted_ranks = [ranks[i] for i in order]
        ties = [sorted_ranks[j] == sorted_ranks[j + 1] for j in range(n - 1)]
        try:
            return self._rate_written_out(ratings, order, ties)
        except _Unusual:
            pass  # a zero precision on the way: the general passes below handle it
        # Variables: rating, performance, team performance (one per player),
        # difference (one per neighbouring pair). Each is [pi, tau]; the
        # messages each factor last sent to each variable are kept beside it.
        rating = [[0.0, 0.0] for _ in range(n)]
        perf = [[0.0, 0.0] for _ in range(n)]
        team = [[0.0, 0.0] for _ in range(n)]
        diff = [[0.0, 0.0] for _ in range(n - 1)]
        # Messages, named factor_to_variable.
        prior_r = [[0.0, 0.0] for _ in range(n)]
        like_r = [[0.0, 0.0] for _ in range(n)]
        like_p = [[0.0, 0.0] for _ in range(n)]
        sum_p = [[0.0, 0.0] for _ in range(n)]
        sum_t = [[0.0, 0.0] for _ in range(n)]
        dsum_d = [[0.0, 0.0] for _ in range(n - 1)]
        dsum_l = [[0.0, 0.0] for _ in range(n - 1)]
        dsum_r = [[0.0, 0.0] for _ in range(n - 1)]
        trunc_d = [[0.0, 0.0] for _ in range(n - 1)]

        variance = self.variance
        dynamic = self.tau
        # Down the rating, performance and team-performance layers.
        for i, player in enumerate(order):
            pi, tau = ratings[player]
            mu = pi and tau / pi
            sigma = math.sqrt(1 / pi) if pi else _INF
            sigma = math.sqrt(sigma**2 + dynamic**2)
            value_pi = sigma**-2
            _update_value(rating[i], prior_r[i], value_pi, value_pi * mu)
        for i in range(n):
            _likelihood(rating[i], like_r[i], perf[i], like_p[i], variance)
        for i in range(n):
            _sum1(perf[i], sum_p[i], team[i], sum_t[i])

        margin = self.draw_margin
        last = n - 2
        for _ in range(ROUNDS):
            if last == 0:
                _sum2_down(team[0], dsum_l[0], team[1], dsum_r[0], diff[0], dsum_d[0])
                delta = self._truncate(diff[0], trunc_d[0], margin, ties[0])
            else:
                delta = 0.0
                for j in range(last):
                    _sum2_down(team[j], dsum_l[j], team[j + 1], dsum_r[j], diff[j], dsum_d[j])
                    delta = max(delta, self._truncate(diff[j], trunc_d[j], margin, ties[j]))
                    _sum2_up_right(team[j], dsum_l[j], diff[j], dsum_d[j], team[j + 1], dsum_r[j])
                for j in range(last, 0, -1):
                    _sum2_down(team[j], dsum_l[j], team[j + 1], dsum_r[j], diff[j], dsum_d[j])
                    delta = max(delta, self._truncate(diff[j], trunc_d[j], margin, ties[j]))
                    _sum2_up_left(diff[j], dsum_d[j], team[j + 1], dsum_r[j], team[j], dsum_l[j])
            if delta <= MIN_DELTA:
                break
        _sum2_up_left(diff[0], dsum_d[0], team[1], dsum_r[0], team[0], dsum_l[0])
        _sum2_up_right(team[last], dsum_l[last], diff[last], dsum_d[last],
                       team[last + 1], dsum_r[last])
        # Up the team-performance and performance layers to the ratings.
        for i in range(n):
            _sum1(team[i], sum_t[i], perf[i], sum_p[i])
        for i in range(n):
            _likelihood(perf[i], like_p[i], rating[i], like_r[i], variance)

        rated: list[tuple[float, float]] = [(0.0, 0.0)] * n
        for i, player in enumerate(order):
            rated[player] = _handed_back(*rating[i])
        return rated

    def _rate_written_out(self, ratings: Sequence[tuple[float, float]], order: list[int],
                          ties: list[bool]) -> list[tuple[float, float]]:
        """:meth:`rate` written out, for the players in finishing ``order`` (``ties``: per
        pair of neighbours in it, True if they tie).

        The same messages in the same order with the same float operations as the passes
        of :meth:`rate` (each step below names the function it stands for), on plain local
        floats: no function call per message, no ``[pi, tau]`` lists. It covers the case in
        which no precision on the way is zero (raising :class:`_Unusual` otherwise, before
        any result), and so the common path of :func:`_sum1` and :func:`_sum2`.
        """
        n = len(order)
        variance = self.variance
        dynamic = self.tau
        margin = self.draw_margin
        # Team performances (one per player, in finishing order) and their messages.
        team_pi = [0.0] * n
        team_tau = [0.0] * n
        rating_pi = [0.0] * n
        rating_tau = [0.0] * n
        perf_pis = [0.0] * n
        perf_taus = [0.0] * n
        for i, player in enumerate(order):
            pi, tau = ratings[player]
            mu = pi and tau / pi
            sigma = math.sqrt(1 / pi) if pi else _INF
            sigma = math.sqrt(sigma**2 + dynamic**2)
            value_pi = sigma**-2
            # _update_value onto a zero variable and message, then _likelihood to perf.
            rating_pi[i] = value_pi
            rating_tau[i] = value_tau = value_pi * mu
            a = 1.0 / (1.0 + variance * value_pi)
            perf_pis[i] = perf_pi = a * value_pi
            perf_taus[i] = perf_tau = a * value_tau
            # _sum1 from perf to team.
            if not perf_pi:
                raise _Unusual
            mu = 0 + perf_tau / perf_pi
            pi = 1.0 / (0 + 1.0 / perf_pi)
            team_pi[i] = pi
            team_tau[i] = pi * mu
        # The messages of the sum factors back up to the perf layer equal what they set.
        sum_pi = team_pi.copy()
        sum_tau = team_tau.copy()
        # Differences of neighbours, and the messages of their factors: to the left team
        # (left_*), the right team (right_*), the difference (down_*), and the truncation's
        # to the difference (trunc_*).
        m = n - 1
        diff_pi = [0.0] * m
        diff_tau = [0.0] * m
        left_pi = [0.0] * m
        left_tau = [0.0] * m
        right_pi = [0.0] * m
        right_tau = [0.0] * m
        down_pi = [0.0] * m
        down_tau = [0.0] * m
        trunc_pi = [0.0] * m
        trunc_tau = [0.0] * m
        last = n - 2
        passes: list[tuple[int, int, bool | None]] = [(0, 0, ties[0])] if last == 0 else [
            *((j, 1, ties[j]) for j in range(last)),
            *((j, 2, ties[j]) for j in range(last, 0, -1))]
        # Rounds of passes down and up the chain until nothing moves more than MIN_DELTA (or
        # ROUNDS of them), then the last two messages up: steps of (pair, back, tie), where
        # back is 0 (no message up, a chain of one pair), 1 (up to the right) or 2 (to the
        # left), and a tie of None sends only the message up.
        rounds = 0
        steps = passes
        final: list[tuple[int, int, bool | None]] = [(0, 2, None), (last, 1, None)]
        while True:
            delta = 0.0
            for j, back, tie in steps:
                if tie is not None:
                    # _sum2_down: diff[j] = team[j] - team[j + 1].
                    a_pi = team_pi[j] - left_pi[j]
                    b_pi = team_pi[j + 1] - right_pi[j]
                    if not (a_pi and b_pi):
                        raise _Unusual
                    pi = 1.0 / (1.0 / a_pi + 1.0 / b_pi)
                    tau = pi * ((team_tau[j] - left_tau[j]) / a_pi
                                + -1.0 * ((team_tau[j + 1] - right_tau[j]) / b_pi))
                    diff_pi[j] = var_pi = diff_pi[j] - down_pi[j] + pi
                    diff_tau[j] = var_tau = diff_tau[j] - down_tau[j] + tau
                    down_pi[j] = pi
                    down_tau[j] = tau
                    # _truncate, then _update_value and _moved.
                    div_pi = var_pi - trunc_pi[j]
                    div_tau = var_tau - trunc_tau[j]
                    sqrt_pi = math.sqrt(div_pi)
                    if tie:
                        v, w = _tied(div_tau / sqrt_pi, margin * sqrt_pi)
                    else:
                        x = div_tau / sqrt_pi - margin * sqrt_pi
                        # _cdf(x): 0.5 * erfc(-x / sqrt 2), the package's erfc written out.
                        e = -x / _SQRT2
                        z = abs(e)
                        t = 1. / (1. + z / 2.)
                        r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (
                            0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
                                0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (
                                    -0.82215223 + t * 0.17087277)))))))))
                        denom = 0.5 * (2. - r if e < 0 else r)
                        # _pdf(x) / denom.
                        v = (_PDF_SCALE * math.exp(-(x ** 2 / 2)) / denom) if denom else -x
                        w = v * (v + x)
                        if not 0 < w < 1:
                            raise FloatingPointError(
                                'Cannot calculate correctly, set backend to "mpmath"')
                    denom = 1.0 - w
                    pi = div_pi / denom
                    tau = (div_tau + sqrt_pi * v) / denom
                    trunc_pi[j] = pi + trunc_pi[j] - var_pi
                    trunc_tau[j] = tau + trunc_tau[j] - var_tau
                    diff_pi[j] = pi
                    diff_tau[j] = tau
                    moved = abs(var_pi - pi)
                    moved = 0.0 if moved == _INF else max(abs(var_tau - tau), math.sqrt(moved))
                    if back == 0:
                        delta = moved
                        continue
                    if moved > delta:  # max(delta, moved)
                        delta = moved
                # Up from the difference (its value less its message to the factor).
                b_pi = diff_pi[j] - down_pi[j]
                b_tau = diff_tau[j] - down_tau[j]
                if back == 1:
                    # _sum2_up_right: team[j + 1] = team[j] - diff[j].
                    a_pi = team_pi[j] - left_pi[j]
                    if not (a_pi and b_pi):
                        raise _Unusual
                    pi = 1.0 / (1.0 / a_pi + 1.0 / b_pi)
                    tau = pi * ((team_tau[j] - left_tau[j]) / a_pi + -1.0 * (b_tau / b_pi))
                    team_pi[j + 1] = team_pi[j + 1] - right_pi[j] + pi
                    team_tau[j + 1] = team_tau[j + 1] - right_tau[j] + tau
                    right_pi[j] = pi
                    right_tau[j] = tau
                else:
                    # _sum2_up_left: team[j] = diff[j] + team[j + 1].
                    a_pi = team_pi[j + 1] - right_pi[j]
                    if not (a_pi and b_pi):
                        raise _Unusual
                    pi = 1.0 / (1.0 / b_pi + 1.0 / a_pi)
                    tau = pi * (b_tau / b_pi + 1.0 * ((team_tau[j + 1] - right_tau[j]) / a_pi))
                    team_pi[j] = team_pi[j] - left_pi[j] + pi
                    team_tau[j] = team_tau[j] - left_tau[j] + tau
                    left_pi[j] = pi
                    left_tau[j] = tau
            if steps is final:
                break
            rounds += 1
            if delta <= MIN_DELTA or rounds == ROUNDS:
                steps = final
        rated: list[tuple[float, float]] = [(0.0, 0.0)] * n
        for i, player in enumerate(order):
            # _sum1 from team to perf, then _likelihood from perf to rating.
            div_pi = team_pi[i] - sum_pi[i]
            if not div_pi:
                raise _Unusual
            mu = 0 + (team_tau[i] - sum_tau[i]) / div_pi
            pi = 1.0 / (0 + 1.0 / div_pi)
            # The perf variable gets this message beside the likelihood's (its old value);
            # the likelihood factor then reads the perf variable without its own message.
            perf_pi = perf_pis[i] + pi
            perf_tau = perf_taus[i] + pi * mu
            perf_pi = perf_pi - perf_pis[i]
            perf_tau = perf_tau - perf_taus[i]
            a = 1.0 / (1.0 + variance * perf_pi)
            rated[player] = _handed_back(rating_pi[i] + a * perf_pi, rating_tau[i] + a * perf_tau)
        return rated

    def _truncate(self, var: _Var, message: _Var, margin: float, tie: bool) -> float:
        div_pi = var[0] - message[0]
        div_tau = var[1] - message[1]
        sqrt_pi = math.sqrt(div_pi)
        diff = div_tau / sqrt_pi
        draw_margin = margin * sqrt_pi
        if tie:
            v = self._v_draw(diff, draw_margin)
            w = self._w_draw(diff, draw_margin)
        else:
            x = diff - draw_margin
            denom = _cdf(x)
            v = (_pdf(x) / denom) if denom else -x
            w = v * (v + x)
            if not 0 < w < 1:
                raise FloatingPointError('Cannot calculate correctly, set backend to "mpmath"')
        denom = 1.0 - w
        return _update_value(var, message, div_pi / denom, (div_tau + sqrt_pi * v) / denom)


def _tied(diff: float, draw_margin: float) -> tuple[float, float]:
    """The package's ``v_draw(diff, draw_margin)`` and ``w_draw(diff, draw_margin)`` (float
    backend), which work out the same two ``cdf`` and two ``pdf`` values three times
    (``w_draw`` calls ``v_draw`` of ``abs(diff)`` again): here once each."""
    abs_diff = abs(diff)
    a, b = draw_margin - abs_diff, -draw_margin - abs_diff
    denom = _cdf(a) - _cdf(b)
    pdf_a, pdf_b = _pdf(a), _pdf(b)
    v_abs = ((pdf_b - pdf_a) / denom) if denom else a
    if not denom:
        raise FloatingPointError('Cannot calculate correctly, set backend to "mpmath"')
    return v_abs * (-1 if diff < 0 else +1), (v_abs ** 2) + (a * pdf_a - b * pdf_b) / denom


def _handed_back(pi: float, tau: float) -> tuple[float, float]:
    """A rating variable's ``(pi, tau)`` as the package hands it back: ``Rating(mu, sigma)``
    made from the variable, then read as ``(pi, tau)`` again."""
    mu = float(pi and tau / pi)
    sigma = float(math.sqrt(1 / pi) if pi else _INF)
    if sigma == 0:
        raise ValueError("sigma**2 should be greater than 0")
    new_pi = sigma**-2
    return new_pi, new_pi * mu


@lru_cache(maxsize=16)
def _draw_margin(beta: float, draw_probability: float) -> float:
    environment = _Environment(beta=beta, draw_probability=draw_probability)
    return float(calc_draw_margin(draw_probability, 2, environment))


def _moved(old_pi: float, old_tau: float, pi: float, tau: float) -> float:
    """How far a variable moved (the package's ``Variable.delta``)."""
    pi_delta = abs(old_pi - pi)
    if pi_delta == _INF:
        return 0.0
    return max(abs(old_tau - tau), math.sqrt(pi_delta))


def _update_message(var: _Var, message: _Var, pi: float, tau: float) -> None:
    """A factor sends ``var`` a new message (replacing ``message``, the last one): the
    package's ``Variable.update_message`` and ``set``. How far ``var`` moved is not worked
    out: the package's schedule reads it only from the truncation factors
    (:func:`_update_value`)."""
    var[0] = var[0] - message[0] + pi
    var[1] = var[1] - message[1] + tau
    message[0] = pi
    message[1] = tau


def _update_value(var: _Var, message: _Var, pi: float, tau: float) -> float:
    """A factor sets ``var`` to a value; its message becomes what makes it so (the
    package's ``Variable.update_value`` and ``set``)."""
    old_pi = var[0]
    old_tau = var[1]
    message[0] = pi + message[0] - old_pi
    message[1] = tau + message[1] - old_tau
    var[0] = pi
    var[1] = tau
    return _moved(old_pi, old_tau, pi, tau)


def _likelihood(source: _Var, from_source: _Var, target: _Var, to_target: _Var,
                variance: float) -> None:
    """The performance factor: ``target`` ~ N(``source``, beta**2), either way."""
    pi = source[0] - from_source[0]
    tau = source[1] - from_source[1]
    a = 1.0 / (1.0 + variance * pi)
    _update_message(target, to_target, a * pi, a * tau)


def _sum1(source: _Var, from_source: _Var, target: _Var, to_target: _Var) -> None:
    """A sum of one term with weight 1 (a team of one), either way."""
    div_pi = source[0] - from_source[0]
    div_tau = source[1] - from_source[1]
    mu = 0 + (div_pi and div_tau / div_pi)
    try:
        pi_inv = 0 + 1.0 / float(div_pi)
    except ZeroDivisionError:
        pi_inv = _INF
    pi = 1.0 / pi_inv
    _update_message(target, to_target, pi, pi * mu)


def _sum2(a: _Var, from_a: _Var, sign: float, b: _Var, from_b: _Var,
          target: _Var, to_target: _Var) -> None:
    """``target`` = ``a`` + ``sign`` * ``b``: the messages of a difference factor."""
    a_pi = a[0] - from_a[0]
    b_pi = b[0] - from_b[0]
    if a_pi and b_pi:
        # The loop below when no precision is zero, term by term the same float operations
        # (and _update_message written out).
        pi = 1.0 / (1.0 / a_pi + 1.0 / b_pi)
        tau = pi * ((a[1] - from_a[1]) / a_pi + sign * ((b[1] - from_b[1]) / b_pi))
        target[0] = target[0] - to_target[0] + pi
        target[1] = target[1] - to_target[1] + tau
        to_target[0] = pi
        to_target[1] = tau
        return
    pi_inv: float = 0
    mu = 0.0
    for var, message, coeff in ((a, from_a, 1.0), (b, from_b, sign)):
        div_pi = var[0] - message[0]
        div_tau = var[1] - message[1]
        mu += coeff * (div_pi and div_tau / div_pi)
        if pi_inv == _INF:
            continue
        try:
            pi_inv += coeff**2 / float(div_pi)
        except ZeroDivisionError:
            pi_inv = _INF
    pi = 1.0 / pi_inv
    _update_message(target, to_target, pi, pi * mu)


def _sum2_down(left: _Var, from_left: _Var, right: _Var, from_right: _Var,
               diff: _Var, to_diff: _Var) -> None:
    """The difference of two neighbours' performances: ``diff`` = ``left`` - ``right``."""
    _sum2(left, from_left, -1.0, right, from_right, diff, to_diff)


def _sum2_up_right(left: _Var, from_left: _Var, diff: _Var, from_diff: _Var,
                   right: _Var, to_right: _Var) -> None:
    """Back to the right-hand neighbour: ``right`` = ``left`` - ``diff``."""
    _sum2(left, from_left, -1.0, diff, from_diff, right, to_right)


def _sum2_up_left(diff: _Var, from_diff: _Var, right: _Var, from_right: _Var,
                  left: _Var, to_left: _Var) -> None:
    """Back to the left-hand neighbour: ``left`` = ``diff`` + ``right``."""
    _sum2(diff, from_diff, 1.0, right, from_right, left, to_left)
