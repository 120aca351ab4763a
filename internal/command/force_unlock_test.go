package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// TestE2EForceUnlock: force-unlock removes the lock information a dead
// command left behind when the ID matches, after confirmation; it never
// breaks a lock whose holder is running.
func TestE2EForceUnlock(t *testing.T) {
	t.Parallel()
	dir, state := appliedStateDir(t)
	infoPath := filepath.Join(dir, ".terraform.tfstate.lock.info")

	mustFailUnchanged(t, dir, infoPath, []string{"Failed to unlock state: LocalState not locked\n"}, "force-unlock", "-no-color", "-force", "some-id")

	// A command that died holding the lock leaves its information.
	const stale = `{"ID":"0f2d6c1e-dead","Operation":"OperationTypeApply","Who":"ci@runner","Version":"1.11.4","Path":"terraform.tfstate"}`
	writeFile(t, infoPath, stale)

	mustFailUnchanged(t, dir, infoPath, []string{`Failed to unlock state: lock ID "wrong" does not match existing lock ID "0f2d6c1e-dead"`}, "force-unlock", "-no-color", "-force", "wrong")

	prompt := "Do you really want to force-unlock?\n" +
		"  strata will remove the lock on the remote state.\n" +
		"  This will allow local strata commands to modify this state, even though it\n" +
		"  may still be in use. Only 'yes' will be accepted to confirm.\n\n" +
		"  Enter a value: \n"
	for _, answer := range []string{"no\n", ""} {
		r := runIn(t, dir, answer, strataBin, "force-unlock", "-no-color", "0f2d6c1e-dead")
		if r.code != 1 || r.stdout != prompt+"force-unlock cancelled.\n" {
			t.Errorf("answer %q: exit %d\n%s%s", answer, r.code, r.stdout, r.stderr)
		}
		if string(readFile(t, infoPath)) != stale {
			t.Fatal("a cancelled force-unlock changed the lock information")
		}
	}

	success := "strata state has been successfully unlocked!\n\n" +
		"The state has been unlocked, and strata commands should now be able to\n" +
		"obtain a new lock on the remote state.\n"
	r := runIn(t, dir, "yes\n", strataBin, "force-unlock", "-no-color", "0f2d6c1e-dead")
	if r.code != 0 || r.stdout != prompt+success {
		t.Errorf("confirmed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(infoPath); err == nil {
		t.Fatal("lock information still there")
	}
	writeFile(t, infoPath, stale)
	if r := mustStrata(t, dir, 0, "force-unlock", "-no-color", "-force", "0f2d6c1e-dead"); r.stdout != success {
		t.Errorf("-force: %q", r.stdout)
	}

	// A live holder is never unlocked from outside.
	holder := statemgr.NewLocal(state, "", "", "test")
	info := statemgr.NewLockInfo("OperationTypeApply", "test")
	if err := holder.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	defer holder.Unlock()
	r = mustFailUnchanged(t, dir, infoPath, []string{"Failed to unlock state: the lock on", "held by a command that is still running", info.ID,
		"Local state cannot be unlocked by another process"}, "force-unlock", "-no-color", "-force", info.ID)
	if strings.Contains(r.stdout, "Do you really want") {
		t.Error("asked to confirm a force-unlock that cannot happen")
	}
	// ...and the state stays locked.
	mustFailUnchanged(t, dir, state, []string{"Error acquiring the state lock"}, "taint", "-no-color", "terraform_data.a")
	if err := holder.Unlock(); err != nil {
		t.Fatal(err)
	}

	mustFailUnchanged(t, dir, infoPath, []string{"Expected a single argument: LOCK_ID"}, "force-unlock")
}
