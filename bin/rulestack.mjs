#!/usr/bin/env node
// The `rulestack` command (see docs/api.md). The code is dist/cli.js, built from web/lib/cli.ts.
import '../dist/cli.js';
