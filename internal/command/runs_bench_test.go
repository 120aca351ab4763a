package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRunRecordCost is the cost of run records on make bench's data
// workload: an apply of 2,000 terraform_data (chains of ten) from an
// empty state, with recording off (STRATA_RUNS=0) and on. It reports the
// command's CPU time (user + system) per apply, which is steadier than
// wall time on a shared machine; compare the two cpu-ms/op figures (the
// goal is within 5%). Alternate -count runs to see the spread:
//
//	go test ./internal/command -run '^$' -bench RunRecordCost -benchtime 5x -count 3
func BenchmarkRunRecordCost(b *testing.B) {
	config := chainsConfig(2000, 10)
	for _, mode := range []struct{ name, env string }{{"off", "0"}, {"on", "1"}} {
		b.Run(mode.name, func(b *testing.B) {
			dir := b.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644); err != nil {
				b.Fatal(err)
			}
			env := append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null", "STRATA_RUNS="+mode.env)
			run := func(args ...string) time.Duration {
				cmd := exec.Command(strataBin, args...)
				cmd.Dir, cmd.Env = dir, env
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					b.Fatalf("strata %v: %v\n%s", args, err, out.String())
				}
				return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			run("init", "-no-color")
			var cpu time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.Remove(filepath.Join(dir, "terraform.tfstate"))
				os.Remove(filepath.Join(dir, "terraform.tfstate.backup"))
				// Every apply starts alike, with no logs waiting: moving
				// logs into the database is the queries' cost.
				os.RemoveAll(filepath.Join(dir, ".terraform", "runs"))
				b.StartTimer()
				cpu += run("apply", "-auto-approve", "-no-color")
			}
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}
