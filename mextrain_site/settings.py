"""Settings: small and explicit; production values come from the environment.

Environment: SECRET_KEY, DEBUG (1/0), ALLOWED_HOSTS (comma-separated), DATABASE_URL
(default: SQLite file db.sqlite3 beside manage.py), CSRF_TRUSTED_ORIGINS, SECURE_SSL_REDIRECT,
STATIC_ROOT (default: staticfiles/ beside manage.py).
Serving (see docs/production.md): REDIS_URL (the shared cache; default: local memory),
TRUSTED_PROXY_HOPS, RATELIMIT_JUDGE, RATELIMIT_SHARE, RATELIMIT_RULESET, STORAGE_QUOTA_BYTES, STORAGE_SITE_DAILY_BYTES,
SHARED_PAGE_CACHE_SECONDS.
Statistics (see docs/statistics.md): STATS_BROKER_URL (default: REDIS_URL; "none": the embedded
thread), STATS_THREADS, RATELIMIT_STATS, STATS_QUEUED_PER_ADDRESS, STATS_STALE_SECONDS.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from mextrain_site.core.sizes import FORM_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in ("1", "true", "yes", "on")


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "dev-only-insecure-key-do-not-use-in-production" if DEBUG else ""
)
if not SECRET_KEY:
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "mextrain_site.core",
    "mextrain_site.referee",
    "mextrain_site.api",
    "mextrain_site.reference",
    "mextrain_site.house",
    "mextrain_site.game",
    "mextrain_site.stats",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "mextrain_site.core.middleware.ServingMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: precompressed by whitenoise
    "mextrain_site.core.compression.FastGZipMiddleware",  # pages and the API: Django's gzip conditions and BREACH padding, ISA-L compressing
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "mextrain_site.core.charsets.BodyCharsetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "mextrain_site.core.middleware.DatabaseDownMiddleware",  # a 503, not a 500, while the database is unreachable
    "mextrain_site.core.middleware.CSPMiddleware",  # django-csp's, the policy built once per process
]

ROOT_URLCONF = "mextrain_site.urls"
WSGI_APPLICATION = "mextrain_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60)
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("he", _("Hebrew")),
    ("hu", _("Hungarian")),
    ("ky", _("Kyrgyz")),
    ("it", _("Italian")),
    ("el", _("Greek")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # where collectstatic writes
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Request size, from the app's own limits (mextrain_site/core/sizes.py): a position of 20,000
# characters in any script, URL-encoded, with the form's other fields. nginx's client_max_body_size
# is sizes.BODY_BYTES (that, or a house ruleset file with its multipart framing).
DATA_UPLOAD_MAX_MEMORY_SIZE = FORM_BYTES

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

# -- Serving: the shared cache, rate limits and quotas, security headers ----------------------

# The cache holds rendered shared rulings, rate-limit counters and storage quotas. One process:
# local memory. Several workers or servers: Redis (Django's own backend), shared by all of them.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "mextrain",
        "TIMEOUT": 24 * 3600,
    }
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "mextrain",
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 500},
    }
}
SHARED_PAGE_CACHE_SECONDS = int(os.environ.get("SHARED_PAGE_CACHE_SECONDS", str(7 * 24 * 3600)))
"""How long a rendered shared ruling stays in the cache (it never changes; this only bounds memory)."""

TRUSTED_PROXY_HOPS = int(os.environ.get("TRUSTED_PROXY_HOPS", "0"))
"""How many proxies in front of the app append to X-Forwarded-For (nginx: 1). 0: the socket's address."""

# Rates per client address, in django-ratelimit's notation ("30/m", "100/h"); "off" disables one.
RATE_LIMITS = {
    "judge": os.environ.get("RATELIMIT_JUDGE", "60/m"),  # judging: POST /<lang>/adjudicate/, POST /api/adjudicate
    "share": os.environ.get("RATELIMIT_SHARE", "10/m"),  # storing a shared ruling
    "ruleset": os.environ.get("RATELIMIT_RULESET", "10/h"),  # creating a house ruleset
    "build": os.environ.get("RATELIMIT_BUILD", "240/m"),  # Build mode: one request per tap
    "stats": os.environ.get("RATELIMIT_STATS", "20/h"),  # starting (or retrying) a statistics job
}
STORAGE_QUOTA_BYTES = int(os.environ.get("STORAGE_QUOTA_BYTES", str(2 * 1024 * 1024)))
"""Bytes of new stored texts (shared rulings, house rulesets) one address may add per UTC day."""
STORAGE_SITE_DAILY_BYTES = int(os.environ.get("STORAGE_SITE_DAILY_BYTES", str(256 * 1024 * 1024)))
"""Bytes of new stored texts the whole site adds per UTC day, every address together (0: no cap);
past it new shares, house rulesets and games are refused with 503 until midnight UTC, reads go on."""
RATELIMIT_USE_CACHE = "default"
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
        "frame-ancestors": ["'none'"],
    }
}
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"
)
"""No page needs a device or payment; the clipboard (the copy-link button) stays allowed for the site itself."""
SECURE_REFERRER_POLICY = "same-origin"
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SAMESITE = "Lax"

# -- Statistics: jobs of self-play on a task queue (mextrain_site/stats, docs/statistics.md) ---------

_stats_broker = os.environ.get("STATS_BROKER_URL", REDIS_URL).strip()
STATS_BROKER_URL = "" if _stats_broker.lower() in ("", "none", "off") else _stats_broker
"""Celery's broker (Redis): jobs' chunks go to the workers (``celery -A mextrain_site worker``). Empty
(no Redis, or STATS_BROKER_URL=none): the embedded fallback, a thread pool in the server process."""
STATS_THREADS = int(os.environ.get("STATS_THREADS", "1"))
"""Threads of the embedded fallback, per server process."""
STATS_QUEUED_PER_ADDRESS = int(os.environ.get("STATS_QUEUED_PER_ADDRESS", "3"))
"""Jobs one address may have queued or running at once (0: no cap)."""
STATS_STALE_SECONDS = int(os.environ.get("STATS_STALE_SECONDS", "900"))
"""A job that has not moved for this long is shown as failed (its worker died), with a retry."""
STATS_CHUNK_GAMES = int(os.environ.get("STATS_CHUNK_GAMES", "0"))
"""Games per chunk (0: the engine's own size, rules.statistics.CHUNK)."""
CELERY_BROKER_URL = STATS_BROKER_URL or "memory://"
CELERY_TASK_IGNORE_RESULT = True  # results live in the database (stats.Job), never in a result backend
CELERY_TASK_ACKS_LATE = True  # a chunk whose worker dies is delivered again (a chunk counts once: stats.Chunk)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # one chunk at a time per process: the chunks spread over every worker
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
