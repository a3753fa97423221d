"""`python -m obligations` is the `obligations` command."""
import sys

from obligations.cli import main

sys.exit(main())
