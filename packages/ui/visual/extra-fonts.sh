#!/bin/sh
# The screenshot suite on a machine with other system fonts: installs fonts-liberation and
# fonts-dejavu (Debian, as root), then runs the visual tests given as a Playwright grep (default:
# the map and date-picker stories that once drew "+", "−" and "→" with a system font). Each test
# also runs the font audit (visual/font-audit.ts), which fails when any glyph on screen comes from
# a font that is not one of the kit's bundled web fonts.
#   sh visual/extra-fonts.sh ['<grep>']
set -eu
if [ "$(id -u)" -ne 0 ]; then echo "extra-fonts.sh installs packages: run it as root" >&2; exit 2; fi
apt-get install -y --no-install-recommends fonts-liberation fonts-dejavu >/dev/null
fc-list : family | grep -q 'Liberation Sans' || { echo "fonts-liberation did not install" >&2; exit 1; }
fc-list : family | grep -q 'DejaVu Sans' || { echo "fonts-dejavu did not install" >&2; exit 1; }
cd "$(dirname "$0")/.."
exec npx playwright test -c visual/playwright.config.ts -g "${1:-(map-|daterangepicker)}"
