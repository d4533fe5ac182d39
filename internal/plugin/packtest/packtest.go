// Package packtest holds what the tests of the rule-pack host share: a
// rule pack that misbehaves on purpose in the way its executable's name
// says, which a test binary runs as itself ([Main]), and counts of the
// processes that packs leave behind ([Running], [InGroup]).
package packtest

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// Main is the TestMain of a test binary that runs rule packs. Started
// under the name of a pack, the binary serves that pack and exits: the
// misbehaving pack under the name of each of its modes (garbage, crash,
// panic, hang, malformed, introspect, behave, pidlog, earlypanic,
// selfhash, holdpipes, orphan, sleeper, echo, needless), or a command of
// more under its name; testscript.Main puts a copy of the binary under each
// name on the PATH of the tests ([Path]). Else it runs the tests of m with
// TMPDIR set to a new directory, which it removes after them: journal-lint
// runs its packs from copies there (private ones, or kept in the tests'
// cache directories there), so that counting the
// processes that run from it counts this binary's packs only, whatever
// else runs on the machine; and it runs more parallel tests at a time than
// go test would ([parallelPerCPU]).
func Main(m testscript.TestingM, more map[string]func()) {
	cmds := map[string]func(){}
	for _, mode := range modes {
		cmds[mode] = misbehave
	}
	maps.Copy(cmds, more)
	testscript.Main(inTmp{m}, cmds)
}

// inTmp runs the tests of m with TMPDIR set to a new directory, and as
// many parallel tests at a time as [parallelPerCPU] says.
type inTmp struct{ m testscript.TestingM }

func (t inTmp) Run() int {
	dir, err := os.MkdirTemp("", "packtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("TMPDIR", dir)
	if !flag.Parsed() {
		flag.Parse()
	}
	raiseParallel(flag.CommandLine)
	return t.m.Run()
}

// raiseParallel sets the flag test.parallel of fs, parsed, to
// [parallelPerCPU] tests per CPU, unless its command line named it.
func raiseParallel(fs *flag.FlagSet) {
	named := false
	fs.Visit(func(f *flag.Flag) { named = named || f.Name == "test.parallel" })
	if !named {
		fs.Set("test.parallel", strconv.Itoa(parallelPerCPU*runtime.GOMAXPROCS(0)))
	}
}

// parallelPerCPU is how many parallel tests a binary of [Main] runs at a
// time per CPU, unless -parallel says otherwise (go test's default is
// one per CPU). Its tests wait more than they compute: on the processes
// they start (packs, git, journal-lint, the shell), on a pack's handshake
// and timeouts. On two CPUs the scripts of cmd/journal-lint took 26-31 s
// at one per CPU and 19-22 s at two (on a machine busy with other work).
const parallelPerCPU = 2

// Path returns where [Main] put the test binary under name.
func Path(t testing.TB, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Digest returns the sha256 of the test binary in hexadecimal: the pin of
// every pack that [Main] runs.
func Digest(t testing.TB) string {
	t.Helper()
	sum, err := digest()
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

var digest = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
})

// Widget is a Journal text of com.example.widget on which the example
// pack (license-policy) reports two findings with its denied license
// GPL-3.0-only: a release without DESCRIPTION and the denied license.
const Widget = `JOURNAL_FORMAT 1
ARTIFACT com.example.widget
JOURNAL_VERSION 20260110T080000Z
DESCRIPTION "A tiny UI toolkit"

RELEASE 1.0.0
LICENSE GPL-3.0-only
CONTENT widget-1.0.0.jar sha256:1111111111111111111111111111111111111111111111111111111111111111

RELEASE 1.1.0
LICENSE MIT
CONTENT widget-1.1.0.jar sha256:2222222222222222222222222222222222222222222222222222222222222222
DESCRIPTION "Fine"
`
