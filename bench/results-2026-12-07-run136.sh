#!/usr/bin/env bash
# Run 136 (session 38): run 134 again (the H200 kind was asked for once
# more), its outputs named run136-*.
RUN=run136 exec bash "$(dirname "$0")/results-2026-12-07-run134.sh"
