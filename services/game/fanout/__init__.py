"""A committed change on its way to the sockets: the payload per recipient, its publication,
the spectator marks, the JSON wire, the batched Redis commands, the per-table channels and
the hand-over of a table to the process the router sends it to."""
