"""``python -m services.cli`` runs the ``paperlist`` command."""

from services.cli import main

main()
