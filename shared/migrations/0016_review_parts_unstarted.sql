-- Review parts handed out but never started.
--
-- review_parts.sent_at now means "handed out": set when the coordinating task plans a part
-- (in the transaction that marks the review running, before any send) and when a sweep
-- sends a part again.  A part still 'queued' long after it was handed out, while the batch
-- queue is empty, lost its message to a worker that died (or failed) before starting it;
-- the sweep (services/ai_worker/review.py, resend_stale) finds such parts through this
-- index instead of reading every part ever written.
CREATE INDEX review_parts_unstarted ON review_parts (sent_at) WHERE status = 'queued';
