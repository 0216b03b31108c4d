"""Entry point of the Celery worker and of its one scheduler: ``celery -A services.indexer.worker worker|beat``.

The one module that builds an app at import time, because that is how Celery finds it. The scheduler is
celery-redbeat's (``beat -S redbeat.RedBeatScheduler``): its schedule and a lock live in Redis, so however
many schedulers are started (two hosts, a restarted container beside a stuck one) exactly one sends the
followed sources' tick (:mod:`services.indexer.follow.schedule`); another takes over within
:data:`BEAT_LOCK_S` of its death.
"""

from services import redis_keys
from services.settings import load_settings

from .celery_app import create_celery
from .follow.schedule import beat_schedule

BEAT_LOOP_S = 5   # how often the running scheduler looks at its schedule (and renews its lock)
BEAT_LOCK_S = 25  # a dead scheduler's lock lapses after this: a standby one takes over

settings = load_settings()
app = create_celery(settings)
app.conf.update(
    beat_schedule=beat_schedule(settings.queue, settings.index, settings.follow_tick),
    beat_max_loop_interval=BEAT_LOOP_S,
    redbeat_redis_url=settings.redis_url,
    redbeat_key_prefix=redis_keys.REDBEAT_PREFIX + settings.index + ":",
    redbeat_lock_timeout=BEAT_LOCK_S,
)
