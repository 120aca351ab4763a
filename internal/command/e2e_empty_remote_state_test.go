package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// emptyRemoteStateSteps are the command sequences of
// TestE2EEmptyRemoteStateWrittenMatchesTerraform, each from a backend
// with nothing stored.
var emptyRemoteStateSteps = [][][]string{
	{{"apply", "-auto-approve"}, {"apply", "-auto-approve"}},
	{{"destroy", "-auto-approve"}},
	{{"refresh"}},
	{{"apply", "-refresh-only", "-auto-approve"}},
	{{"plan", "-out=p"}, {"apply", "p"}},
	{{"plan"}},
}

// TestE2EEmptyRemoteStateWrittenMatchesTerraform: with the pg, http and
// s3 backends, as with the local one (TestE2EEmptyStateWrittenMatchesTerraform),
// apply, destroy, refresh, apply -refresh-only and the apply of a saved
// plan store an empty state where none was stored (serial 1, then
// unchanged), and plan stores none. Compared with terraform's recorded
// outcome (its runs reach a server, so they are not recorded one by one).
func TestE2EEmptyRemoteStateWrittenMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf, tfErr := referenceTerraform()
	// Each backend returns a new place to keep a state in: its backend
	// block, and a function describing what is stored there.
	backends := map[string]func(t *testing.T) func() (block string, stored func() string){
		"pg": func(t *testing.T) func() (string, func() string) {
			conn := pgtest.ConnString(t)
			n := 0
			return func() (string, func() string) {
				n++
				schema := fmt.Sprintf("s%d", n)
				block := fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", conn, schema)
				return block, func() string {
					doc, ok := readPGState(t, conn, schema, "default")
					if !ok {
						return "no state"
					}
					return fmt.Sprintf("serial %d, %d resources", doc.Serial, len(doc.Resources))
				}
			}
		},
		"http": func(t *testing.T) func() (string, func() string) {
			return func() (string, func() string) {
				srv := newHTTPStateServer(t, "", "")
				return httpBackendConfig(srv.url, ""), func() string {
					doc, _ := srv.state(t)
					if srv.received()["stored state"] == nil {
						return "no state"
					}
					return fmt.Sprintf("serial %d, %d resources", doc.Serial, len(doc.Resources))
				}
			}
		},
		"s3": func(t *testing.T) func() (string, func() string) {
			srv, bucket := s3Env(t)
			n := 0
			return func() (string, func() string) {
				n++
				key := fmt.Sprintf("k%d/terraform.tfstate", n)
				return srv.Block(bucket, key, ""), func() string {
					doc, ok := readS3State(t, srv, bucket, key)
					if !ok {
						return "no state"
					}
					return fmt.Sprintf("serial %d, %d resources", doc.Serial, len(doc.Resources))
				}
			}
		},
	}
	for name, backend := range backends {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			newPlace := backend(t)
			run := func(bin string) string {
				var got strings.Builder
				for _, steps := range emptyRemoteStateSteps {
					block, stored := newPlace()
					dir := t.TempDir()
					writeFile(t, filepath.Join(dir, "main.tf"), block+"\nvariable \"v\" {\n  default = 1\n}\n")
					if r := runWith(t, dir, "", bin, nil, "init", "-no-color", "-input=false"); r.code != 0 {
						t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
					}
					for _, args := range steps {
						// Flags before the plan file: terraform reads none after it.
						full := append([]string{args[0], "-no-color", "-input=false"}, args[1:]...)
						r := runWith(t, dir, "", bin, nil, full...)
						fmt.Fprintf(&got, "%s: exit %d, %s\n", strings.Join(args, " "), r.code, stored())
					}
				}
				return got.String()
			}
			got := run(strataBin)
			if !strings.Contains(got, "refresh: exit 0, serial 1, 0 resources\n") || !strings.Contains(got, "plan: exit 0, no state\n") {
				t.Errorf("strata's results:\n%s", got)
			}
			if tfErr != nil {
				return
			}
			want := recordedOutcome(t, tf, []string{"e2e_empty_remote_state_test.go"}, func() string { return run(tf) })
			if want != got {
				t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
			}
		})
	}
}
