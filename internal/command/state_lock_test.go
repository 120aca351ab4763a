package command

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// TestE2EStateCommandsLock: every command that changes the state takes the
// lock, so a held lock stops it with the holder named and the state
// byte-identical; -lock=false goes ahead regardless, and -lock-timeout
// waits for the holder.
func TestE2EStateCommandsLock(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	writeFile(t, filepath.Join(dir, "push.json"), mustStrata(t, dir, 0, "state", "pull").stdout)
	mustStrata(t, dir, 0, "taint", "terraform_data.b[1]")

	holder := statemgr.NewLocal(state, "", "", "test")
	info := statemgr.NewLockInfo("OperationTypeApply", "test")
	if err := holder.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}

	commands := map[string][]string{
		"state rm":               {"state", "rm", "terraform_data.a"},
		"state mv":               {"state", "mv", "terraform_data.a", "terraform_data.z"},
		"state push":             {"state", "push", "-force", "push.json"},
		"state replace-provider": {"state", "replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "acme/terraform"},
		"taint":                  {"taint", "terraform_data.a"},
		"untaint":                {"untaint", "terraform_data.b[1]"},
	}
	for name, args := range commands {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := mustFailUnchanged(t, dir, state, []string{"Error acquiring the state lock", info.ID, "OperationTypeApply"},
				withFlag(args, "-no-color")...)
			if time.Since(start) > 10*time.Second {
				t.Error("the lock error was not immediate")
			}
			if r.stdout != "" {
				t.Errorf("output despite the lock:\n%s", r.stdout)
			}
		})
	}
	if got := timestampedBackups(t, state); len(got) != 0 {
		t.Fatalf("backups written under a held lock: %v", got)
	}
	// Reading commands need no lock.
	mustStrata(t, dir, 0, "state", "list")
	mustStrata(t, dir, 0, "state", "show", "terraform_data.a")
	mustStrata(t, dir, 0, "state", "pull")

	// -lock=false ignores the holder.
	serial := readStateDoc(t, state).Serial
	mustStrata(t, dir, 0, "taint", "-lock=false", "terraform_data.a")
	if readStateDoc(t, state).Serial != serial+1 {
		t.Error("taint -lock=false did not write")
	}

	// -lock-timeout waits until the holder lets go.
	unlocked := make(chan struct{})
	go func() {
		defer close(unlocked)
		time.Sleep(300 * time.Millisecond)
		_ = holder.Unlock()
	}()
	mustStrata(t, dir, 0, "state", "rm", "-lock-timeout=20s", "terraform_data.a")
	<-unlocked
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Fatal("lock info file left behind")
	}
	// Each command releases its lock: the next one gets it at once.
	for _, args := range [][]string{
		{"state", "mv", "terraform_data.b[0]", "terraform_data.z"},
		{"untaint", "terraform_data.b[1]"},
		{"state", "replace-provider", "-auto-approve", "terraform.io/builtin/terraform", "acme/terraform"},
		{"state", "push", "-force", "push.json"},
	} {
		mustStrata(t, dir, 0, args...)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.tfstate.lock.info")); err == nil {
		t.Fatal("lock info file left behind")
	}
}

// withFlag inserts flag after the command words of args (those before the
// first flag or address).
func withFlag(args []string, flag string) []string {
	n := 1
	if args[0] == "state" {
		n = 2
	}
	out := append([]string{}, args[:n]...)
	out = append(out, flag)
	return append(out, args[n:]...)
}
