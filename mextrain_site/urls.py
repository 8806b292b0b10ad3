"""URLs. Pages live under a language prefix (/en/, /he/, ...); the API, the health view and
short share links (/r/<id>/) do not."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from mextrain_site.core import refusals
from mextrain_site.core import views as core_views

urlpatterns = [
    path("health", core_views.health, name="health"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("too-large", refusals.too_large, name="too-large"),  # nginx's error_page 413 (deploy/nginx)
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("mextrain_site.house.api_urls")),  # POST /api/rulesets: the house app's
    path("", include("mextrain_site.game.urls")),  # /api/games, /g/<id>/: before the API's catch-all
    path("api/", include("mextrain_site.stats.api_urls")),  # /api/variants/<id>/stats: before the API's catch-all
    path("api/", include("mextrain_site.api.urls")),
    path("r/", include("mextrain_site.referee.share_urls")),
    path("h/", include("mextrain_site.house.share_urls")),
]

urlpatterns += i18n_patterns(
    path("", core_views.home, name="home"),
    path("", include("mextrain_site.referee.urls")),
    path("", include("mextrain_site.house.urls")),  # before the reference: /variants/house-…/ is the house app's
    path("", include("mextrain_site.reference.urls")),
    path("", include("mextrain_site.game.page_urls")),
    path("", include("mextrain_site.stats.urls")),
    prefix_default_language=True,
)

handler404 = "mextrain_site.core.views.not_found"
handler400 = "mextrain_site.core.refusals.bad_request"
