"""Which address a request comes from, for the login and sign-up throttles.

Behind nginx (``deploy/nginx.conf``) every request comes from the proxy, and the player's
address is the last entry of ``X-Forwarded-For``, the one nginx appended.  Without a proxy
anybody can write that header, and a throttle that believed it would count each guess
under a new address.  So the header is believed only from ``TRUSTED_PROXY_HOPS`` proxies
(werkzeug's ``ProxyFix``): 0 under ``make run`` (``request.remote_addr`` is the connection's
own address), 1 behind the deploy's nginx or Ingress.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def trust_proxies(app: Flask, hops: int) -> None:
    """Have ``request.remote_addr`` be the address ``hops`` proxies in front of ``app`` saw."""
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0, x_prefix=0)
