"""The CLI's error boundary: each failure an operator meets ends as one ``error:`` line and exit 2, no traceback."""

import pytest
import redis
from kombu.exceptions import OperationalError

from services.cli import common


@pytest.mark.parametrize("exc, words", [
    (redis.ConnectionError("Error 111 connecting"), "Redis is not reachable"),
    # Celery wraps the broker's Redis errors in kombu's: met when Redis dies while tasks are sent.
    (OperationalError("Error 111 connecting to 127.0.0.1:6390"), "task broker (Redis) is not reachable"),
])
def test_unreachable_redis_is_one_error_line_and_exit_2(exc, words, capsys):
    @common.friendly
    def command():
        raise exc

    with pytest.raises(SystemExit) as stop:
        command()
    err = capsys.readouterr().err
    assert stop.value.code == common.EXIT_FAILURE
    assert err.startswith("error:") and words in err and "Traceback" not in err
