package rules

import (
	"github.com/r35157/journal-lint/internal/diag"
)

// pluginFailed is plugin/failed, reported by the check engine's rule-pack
// analyzer (internal/check/plugins.go, package internal/plugin) when a
// configured rule pack misbehaves.
var pluginFailed = Rule{
	Code:            "plugin/failed",
	DefaultSeverity: diag.Error,
	Summary:         "a configured rule pack failed, so its rules did not run",
	Doc: `A rule pack listed under ` + "`plugins:`" + ` in .journal-lint.yaml (see docs/plugins.md) did
not complete: it could not start or finish its handshake, crashed or panicked,
ran past its timeout, wrote something other than go-plugin's handshake to
stdout, described itself badly, rejected its configuration, or returned a
malformed diagnostic (an unknown rule, an empty message, a path or range
outside the documents it was given).

The pack's partial results are dropped and this one diagnostic takes their
place, naming the pack and quoting its stderr; the help text holds the last
lines of that stderr. The built-in rules and every other pack still report.
The process is killed: nothing of a failed pack outlives journal-lint.

A pack whose executable does not match its pinned sha256 is not a failure of
the pack but a configuration error: journal-lint stops before running it.

Failing example:

~~~text
$ journal-lint check journals
error: rule pack license-policy failed: check timed out after 2s; stderr: "still working on com.example.widget" [plugin/failed]
~~~

Passing example:

~~~text
$ journal-lint check journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`,
	Check: reportedElsewhere,
}

// configPluginsChanged is config/plugins-changed, reported by the check
// engine (internal/check/trust.go) when `check --against` finds that the
// work tree's plugins: entries are not the base revision's.
var configPluginsChanged = Rule{
	Code:            "config/plugins-changed",
	DefaultSeverity: diag.Warning,
	Summary:         "a pull request changes the rule packs of .journal-lint.yaml, which run only after merge",
	Doc: `Rule packs are executables that journal-lint runs. With ` + "`check --against REV`" + `
(the pull-request gate in CI) the ` + "`plugins:`" + ` entries (paths, pins, config,
timeouts) come from the configuration file as it is at the base revision,
read from git, never from the work tree: a pull request cannot make CI run
code that the base branch did not approve. Everything else of the
configuration is the pull request's. See docs/ci.md for the trust model.

When the work tree's ` + "`plugins:`" + ` differ, this warning names each entry that
the pull request adds, changes (and which keys) or removes; the range is the
entry in the work tree's file (the ` + "`plugins:`" + ` key for a removal). Such a
change takes effect once merged. A reviewer must look at it: a new pin is new
code for CI to run. A pull request that also rebuilds a pinned pack fails
with a checksum mismatch until the new pin is merged.

Failing example:

~~~text
$ git diff main -- .journal-lint.yaml
+plugins:
+  - path: bin/house-rules
+    sha256: 3f5c…
$ journal-lint check --against main journals
.journal-lint.yaml:2:5: warning: rule pack bin/house-rules is not in the configuration at the base revision 5d41402abc4b: this check does not run it, it takes effect after merge [config/plugins-changed]
~~~

Passing example:

~~~text
$ git diff main -- .journal-lint.yaml
$ journal-lint check --against main journals
0 errors, 0 warnings, 0 infos in 3 files (1 artifact, 3 revisions)
~~~
`,
	Check: reportedElsewhere,
}
