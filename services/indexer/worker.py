"""Entry point of the Celery worker: ``celery -A services.indexer.worker worker``.

The one module that builds an app at import time, because that is how Celery finds it.
"""

from services.settings import load_settings

from .celery_app import create_celery

app = create_celery(load_settings())
