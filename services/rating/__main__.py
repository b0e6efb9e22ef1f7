from gevent import monkey

monkey.patch_all()

# Everything else is imported only now: psycopg and redis must see the patched
# socket/select modules (stack-pitfalls.md §1.1, §2).
from services.rating.app import main  # noqa: E402

main()
