package ref

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRefreshIsAllOrNothing covers the refresh failures of issue 2: a changed
// accepted file is a chain/conflict, a vanished one is fs/revision-missing,
// an invalid new file fails the refresh; each time the service keeps exactly
// the state it had, and a later valid refresh still works.
func TestRefreshIsAllOrNothing(t *testing.T) {
	t.Parallel()
	g, s1, s2 := chainTexts()
	for _, tc := range []struct {
		name, code string
		breakTree  func(root string)
	}{
		{"changed accepted file", "chain/conflict", func(root string) {
			write(t, root, widget+"/20260201T080000Z.journal", append([]byte("# edited\n"), s1...))
		}},
		{"vanished accepted file", "fs/revision-missing", func(root string) {
			if err := os.Remove(filepath.Join(root, widget, "20260201T080000Z.journal")); err != nil {
				t.Fatal(err)
			}
		}},
		{"invalid new file", "value/format", func(root string) {
			write(t, root, widget+"/20260301T080000Z.journal", []byte("JOURNAL_FORMAT 2\n"))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tree(t, map[string][]byte{
				widget + "/20260110T080000Z.journal": g,
				widget + "/20260201T080000Z.journal": s1,
			})
			m, svc := started(t, root)
			ctx := context.Background()
			before := svc.Revisions(coord(widget))
			tc.breakTree(root)
			wantCode(t, m.Refresh(ctx), tc.code)
			after := svc.Revisions(coord(widget))
			if len(after) != len(before) || after[len(after)-1].Digest() != before[len(before)-1].Digest() {
				t.Fatalf("a failed refresh changed the state: %d → %d revisions", len(before), len(after))
			}
			if _, err := m.Service(); err != nil {
				t.Errorf("a failed refresh stopped the service: %v", err)
			}
			// Repair the tree and add a valid successor: refresh works again.
			write(t, root, widget+"/20260201T080000Z.journal", s1)
			write(t, root, widget+"/20260301T080000Z.journal", s2)
			if err := m.Refresh(ctx); err != nil {
				t.Fatalf("refresh after repair: %v", err)
			}
			if head, _ := svc.Latest(coord(widget)); head.Digest().String() != digest(s2) {
				t.Errorf("head after repair is %s", head.Digest())
			}
		})
	}
}
