package command

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// The pg backend keeps an apply's progress in a local journal and writes
// the state to the database once, at the end: the remote writes of an
// apply must grow with the size of the state, not with its square (as
// Terraform's, which persists the whole state after each resource).

// pgWriteCounter counts the writes to the pg backend's states table and
// the bytes they store, with a trigger.
type pgWriteCounter struct {
	conn string
}

func newPGWriteCounter(tb testing.TB, conn, schema string) *pgWriteCounter {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS public.bench_writes (bytes bigint NOT NULL)`,
		`CREATE OR REPLACE FUNCTION public.bench_count() RETURNS trigger AS $$
BEGIN
  INSERT INTO public.bench_writes VALUES (coalesce(length(NEW.data), 0));
  RETURN NEW;
END $$ LANGUAGE plpgsql`,
		`CREATE OR REPLACE TRIGGER bench_count AFTER INSERT OR UPDATE ON ` + pgx.Identifier{schema, "states"}.Sanitize() + ` FOR EACH ROW EXECUTE FUNCTION public.bench_count()`,
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			tb.Fatal(err)
		}
	}
	return &pgWriteCounter{conn: conn}
}

// take returns the writes and bytes counted since the last call.
func (p *pgWriteCounter) take(tb testing.TB) (writes, written int64) {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, p.conn)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close(ctx)
	if err := c.QueryRow(ctx, `WITH d AS (DELETE FROM public.bench_writes RETURNING bytes) SELECT count(*), coalesce(sum(bytes), 0) FROM d`).Scan(&writes, &written); err != nil {
		tb.Fatal(err)
	}
	return writes, written
}

func pgExec(tb testing.TB, conn, q string) {
	tb.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, q); err != nil {
		tb.Fatal(err)
	}
}

// strataTB runs strata in dir for tests and benchmarks alike.
func strataTB(tb testing.TB, dir string, args ...string) {
	tb.Helper()
	cmd := exec.Command(strataBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		tb.Fatalf("strata %v: %v\n%s", args, err, out.String())
	}
}

// TestPGApplyRemoteWritesLinear: an apply of N resources writes the state
// to Postgres a constant number of times, so the bytes sent grow linearly
// with N: four times the resources, about four times the bytes.
//
// The resources form chains of ten rather than one long chain: each object
// records all its transitive dependencies, as Terraform's state does, so
// the state of one chain of N resources is itself quadratic in N whatever
// the number of writes.
func TestPGApplyRemoteWritesLinear(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	var bytesAt [2]int64
	for i, n := range []int{250, 1000} {
		dir := t.TempDir()
		schema := "linear_" + []string{"small", "large"}[i]
		writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  backend \"pg\" {\n    conn_str = \""+conn+"\"\n    schema_name = \""+schema+"\"\n  }\n}\n"+chainsConfig(n, 10))
		strataTB(t, dir, "init", "-no-color")
		counter := newPGWriteCounter(t, conn, schema)
		strataTB(t, dir, "apply", "-auto-approve", "-no-color")
		writes, written := counter.take(t)
		doc, _ := readPGState(t, conn, schema, "default")
		if len(doc.Resources) != n {
			t.Fatalf("%d resources stored, want %d", len(doc.Resources), n)
		}
		t.Logf("apply of %d resources: %d remote writes, %d bytes", n, writes, written)
		if writes > 2 {
			t.Errorf("apply of %d resources wrote the state %d times: a write per resource makes apply quadratic", n, writes)
		}
		bytesAt[i] = written
	}
	if ratio := float64(bytesAt[1]) / float64(bytesAt[0]); ratio > 5 {
		t.Errorf("4x the resources sent %.1fx the bytes: not linear", ratio)
	}
}

// chainsConfig returns a configuration of n terraform_data resources in
// chains of length: each takes the previous one's output as input, except
// the first of each chain.
func chainsConfig(n, length int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		input := `"start"`
		if i%length != 0 {
			input = fmt.Sprintf("terraform_data.r%d.output", i-1)
		}
		fmt.Fprintf(&b, "resource \"terraform_data\" \"r%d\" {\n  input = %s\n}\n", i, input)
	}
	return b.String()
}

// BenchmarkBackendApply1000 plans and applies 1,000 chained resources from
// empty, and plans them again with no changes, with the local backend and
// with the pg backend (skipped without PostgreSQL; see package pgtest).
// The pg runs report the remote writes and bytes per apply.
//
//	go test ./internal/command -run '^$' -bench BackendApply1000 -benchtime 3x
func BenchmarkBackendApply1000(b *testing.B) {
	const n = 1000
	for _, backend := range []string{"local", "pg"} {
		b.Run(backend, func(b *testing.B) {
			dir := b.TempDir()
			var conn string
			header := ""
			if backend == "pg" {
				conn = pgtest.ConnString(b)
				header = "terraform {\n  backend \"pg\" {\n    conn_str = \"" + conn + "\"\n  }\n}\n"
			}
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(header+chainConfig(n)), 0o644); err != nil {
				b.Fatal(err)
			}
			strataTB(b, dir, "init", "-no-color")
			var counter *pgWriteCounter
			if backend == "pg" {
				counter = newPGWriteCounter(b, conn, "terraform_remote_state")
			}
			reset := func() {
				if backend == "pg" {
					pgExec(b, conn, "DELETE FROM terraform_remote_state.states")
					counter.take(b)
				} else {
					os.Remove(filepath.Join(dir, "terraform.tfstate"))
					os.Remove(filepath.Join(dir, "terraform.tfstate.backup"))
				}
			}
			b.Run("apply", func(b *testing.B) {
				var writes, written int64
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					reset()
					b.StartTimer()
					strataTB(b, dir, "apply", "-auto-approve", "-no-color")
					if counter != nil {
						b.StopTimer()
						w, by := counter.take(b)
						writes, written = writes+w, written+by
						b.StartTimer()
					}
				}
				if counter != nil {
					b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
					b.ReportMetric(float64(written)/float64(b.N)/1024, "KiB-written/op")
				}
			})
			b.Run("noop-plan", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					strataTB(b, dir, "plan", "-no-color", "-detailed-exitcode")
				}
			})
		})
	}
}
