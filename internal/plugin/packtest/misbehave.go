package packtest

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
	"github.com/r35157/journal-lint/plugins/sdk"
)

// modes are the names of the misbehaving pack's behaviours.
var modes = []string{"garbage", "crash", "panic", "hang", "malformed", "introspect", "behave", "pidlog",
	"earlypanic", "selfhash", "holdpipes", "orphan", "setsid", "sleeper", "echo", "needless"}

// misbehave serves a rule pack that misbehaves in the way the name of the
// running executable (os.Args[0]) says: garbage (writes to stdout before the
// handshake), crash (a goroutine panics during Check, killing the process),
// panic (a rule panics; the SDK recovers), hang (a rule never returns),
// malformed (reports a range outside the document), introspect (reports
// what its stdin and environment are), pidlog (behaves, but appends its
// process id to <mode>.pids in its working directory when it starts and
// ignores the lifeline, so that only the host closing it ends it),
// earlypanic (writes to stderr and panics before sdk.Serve), selfhash
// (reports the sha256 of the bytes it runs from as its version), holdpipes
// (starts a grandchild that keeps the pack's stdout and stderr open, then
// hangs in Check), orphan (the same with a grandchild that has neither),
// setsid (the same with a grandchild that leaves the process group with
// setsid),
// sleeper (sleeps: the grandchild), echo (reports what its config says:
// message, help and related as a diagnostic, count times; writes stderr to
// stderr first, and crashes with panic when set), needless (echo that
// declares it reads only the chain context, and that its rules are pure:
// what it reports follows from its configuration), or anything else
// (behaves).
func misbehave() {
	mode := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if mode == "garbage" {
		fmt.Println("hello from a careless pack")
	}
	version := "0.0.1"
	switch mode {
	case "pidlog":
		logPID(mode)
		os.Unsetenv(wire.EnvLifelineFD)
	case "earlypanic":
		fmt.Fprintln(os.Stderr, "loading the house rules")
		panic("no rules file")
	case "selfhash":
		version = selfHash()
	case "sleeper":
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	sdk.Serve(packOf(mode, version))
}

// packOf returns the pack of mode, with version as its own.
func packOf(mode, version string) sdk.Pack {
	var needs sdk.Needs // every part
	if mode == "needless" {
		needs = sdk.NeedChain
	}
	return sdk.Pack{
		Name:    "misbehave",
		Version: version,
		Needs:   needs,
		Pure:    mode == "needless",
		Rules: []sdk.Rule{{
			Name:     "mode",
			Severity: sdk.Warning,
			Summary:  "misbehaves as its name says",
			Check:    func(p *sdk.Pass) { run(mode, p) },
		}},
	}
}

// logPID appends the process id to <mode>.pids in the working directory
// (the configuration's directory), so that a test can count how often the
// pack was started.
func logPID(mode string) {
	f, err := os.OpenFile(mode+".pids", os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = fmt.Fprintln(f, os.Getpid())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// selfHash returns "sha256-<hex>" of the executable this process runs
// (which may have been removed from its directory since).
func selfHash() string {
	b, err := os.ReadFile("/proc/self/exe")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return fmt.Sprintf("sha256-%x", sha256.Sum256(b))
}

// grandchild starts this executable again as a sleeper in the pack's
// process group, with the pack's own stdout and stderr (descriptors 1 and
// 2, which go-plugin does not redirect) when holdPipes is set, and reports
// its process id on stderr.
func grandchild(holdPipes, newSession bool) {
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"sleeper"}
	if holdPipes {
		cmd.Stdout, cmd.Stderr = os.NewFile(1, "stdout"), os.NewFile(2, "stderr")
	}
	if newSession {
		setsid(cmd)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "grandchild:", err)
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, "started grandchild", cmd.Process.Pid)
}

func run(mode string, p *sdk.Pass) {
	switch mode {
	case "holdpipes", "orphan", "setsid":
		grandchild(mode == "holdpipes", mode == "setsid")
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "about to crash while checking", p.Doc.Path)
		go func() { panic("pack crashed on purpose") }()
		time.Sleep(time.Hour)
	case "panic":
		panic("rule panicked on purpose")
	case "hang":
		fmt.Fprintln(os.Stderr, "still working on", p.Doc.Path)
		time.Sleep(time.Hour)
	case "malformed":
		p.Report(sdk.Diagnostic{Message: "out of range", Range: sdk.Range{
			Start: sdk.Pos{Offset: 0, Line: 1, Column: 1},
			End:   sdk.Pos{Offset: len(p.Doc.Text) + 100, Line: 1, Column: 1},
		}})
	case "echo", "needless":
		echo(p)
	case "introspect":
		stdin, _ := os.Readlink("/proc/self/fd/0")
		var names []string
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			names = append(names, name)
		}
		sort.Strings(names)
		p.Reportf(sdk.Range{}, "stdin=%s env=%s", stdin, strings.Join(names, ","))
	default:
		p.Reportf(p.Doc.Range(0, 0), "checked %s", p.Doc.Path)
	}
}

// echo reports the diagnostic that the pack's config describes (the
// hostile-input catalogue's pack behaviours).
func echo(p *sdk.Pass) {
	m, _ := p.Config.Map()
	str := func(k string) string { s, _ := m[k].(string); return s }
	if s := str("stderr"); s != "" {
		fmt.Fprintln(os.Stderr, s)
	}
	if s := str("panic"); s != "" {
		go func() { panic(s) }()
		time.Sleep(time.Hour)
	}
	d := sdk.Diagnostic{Message: str("message"), Help: str("help")}
	if r := str("related"); r != "" {
		d.Related = []sdk.Related{{Path: r, Message: r}}
	}
	n := 1
	if c, ok := m["count"].(float64); ok {
		n = int(c)
	}
	for range n {
		p.Report(d)
	}
}
