"""A person's pace: how often one client (a browser's address, a learner) may do a thing.

The class server lets one address open a few pages at once and then a few a minute
(``serve.app``); the exercises page lets one learner check a few answers at once and
then one every few seconds, which is as fast as a person types them.
"""

from __future__ import annotations

from typing import Final

#: Clients remembered at most (the oldest are forgotten first); a class is far fewer.
MAX_CLIENTS: Final = 4096


class Pace:
    """A token bucket per client: ``burst`` at once, then ``per_minute`` more a minute.

    >>> pace = Pace(burst=2, per_minute=6)
    >>> [pace.wait("a", now) for now in (0.0, 0.0, 0.0)]
    [0.0, 0.0, 10.0]
    >>> pace.wait("a", 10.0), pace.wait("b", 10.0)
    (0.0, 0.0)
    """

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst, self.per_second = burst, per_minute / 60
        self._tokens: dict[str, tuple[float, float]] = {}

    def wait(self, client: str, now: float) -> float:
        """Seconds ``client`` must wait before its next one (0: go ahead now, and it is counted)."""
        if self.burst <= 0 or self.per_second <= 0:
            return 0.0
        tokens, then = self._tokens.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if tokens >= 1:
            tokens -= 1
            wait = 0.0
        else:
            wait = (1 - tokens) / self.per_second
        self._tokens[client] = (tokens, now)  # re-inserted: the dict stays oldest-first
        while len(self._tokens) > MAX_CLIENTS:
            del self._tokens[next(iter(self._tokens))]
        return wait
