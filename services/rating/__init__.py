"""The rating service: consumes the durable event stream (group ``rating``) and keeps ratings.

Events are applied exactly once (``shared.event_stream``); what each event type
does is registered in ``services.rating.handlers``.
"""
