package plugin

import "testing"

// TestTellingLine: the stderr line a pack failure quotes.
func TestTellingLine(t *testing.T) {
	for _, tt := range []struct{ tail, want string }{
		{"", ""},
		{"starting\nconnection refused\n", "connection refused"},
		{"log line\npanic: assignment to entry in nil map\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:9 +0x1d\n", "panic: assignment to entry in nil map"},
		// A panic the pack's server recovered: its trace ends in a frame
		// of the RPC server; the line before the trace is quoted.
		{"rule artifact-prefix: boom\ngoroutine 23 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\ngoogle.golang.org/grpc.(*Server).processUnaryRPC(0xc0001b2000, {0x9d3f40, 0xc000312000}, 0xc0002b8000, 0x0)\n\t/root/go/pkg/mod/google.golang.org/grpc@v1.61.0/server.go:1040 +0x11d\ncreated by google.golang.org/grpc.(*Server).serveStreams in goroutine 9\n", "rule artifact-prefix: boom"},
		{"goroutine 1 [running]:\nmain.main()\n\t/src/main.go:9 +0x1d\n", ""},
	} {
		if got := tellingLine(tt.tail); got != tt.want {
			t.Errorf("tellingLine(%q) = %q, want %q", tt.tail, got, tt.want)
		}
	}
}
