from gevent import monkey

monkey.patch_all()

# Everything else is imported only now: psycopg, redis and the Socket.IO message queue
# must see the patched socket/select modules (stack-pitfalls.md §1.1, §2).
from services.game.app import main  # noqa: E402

main()
