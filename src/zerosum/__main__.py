import sys

from zerosum.cli import main

sys.exit(main())
