package sdk

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/r35157/journal-lint/plugins/proto/rulepack/v1/wire"
)

// Serve serves pack to journal-lint and never returns: it is the whole body
// of a pack's main. It writes nothing to stdout except go-plugin's handshake
// line, logs to stderr (which journal-lint quotes when the pack fails), and
// exits when journal-lint closes the connection or exits itself.
//
// Serve exits with status 1 after a message on stderr when pack is not
// valid (see [Pack.Validate]) or when the executable was not started by
// journal-lint.
func Serve(pack Pack) {
	srv, err := newServer(pack)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: invalid rule pack: %v\n", os.Args[0], err)
		os.Exit(1)
	}
	if os.Getenv(wire.Handshake.MagicCookieKey) != wire.Handshake.MagicCookieValue {
		fmt.Fprintf(os.Stderr, "%s is a journal-lint rule pack (%s %s): journal-lint starts it.\n"+
			"Pin it in .journal-lint.yaml (journal-lint plugins checksum %s) and run journal-lint check.\n",
			os.Args[0], pack.Name, pack.Version, os.Args[0])
		os.Exit(1)
	}
	watchLifeline()
	// A pack lives for one run and allocates mostly short-lived messages:
	// trade some memory for less garbage-collection work.
	debug.SetGCPercent(300)
	logger := hclog.New(&hclog.LoggerOptions{
		Name:   pack.Name,
		Output: os.Stderr,
		Level:  hclog.Warn,
	})
	goplugin.Serve(&goplugin.ServeConfig{
		HandshakeConfig:  wire.Handshake,
		VersionedPlugins: wire.PluginSets(srv),
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			return grpc.NewServer(append(opts, wire.ServerOptions()...)...)
		},
		Logger: logger,
	})
	os.Exit(0)
}

// watchLifeline makes the process exit when the host's end of the lifeline
// pipe closes: when journal-lint exits, however it exits (even SIGKILL),
// the kernel closes its end and the read below returns.
func watchLifeline() {
	s := os.Getenv(wire.EnvLifelineFD)
	if s == "" {
		return
	}
	os.Unsetenv(wire.EnvLifelineFD)
	fd, err := strconv.Atoi(s)
	if err != nil || fd < 3 {
		return
	}
	f := os.NewFile(uintptr(fd), "journal-lint-lifeline")
	if f == nil {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, f)
		os.Exit(3)
	}()
}
