package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFileWatcherDebounces: a burst of writes to configuration files is
// one signal; files that are neither configuration nor variables are
// none. The files are named relative to the working directory given, not
// the process's.
func TestFileWatcherDebounces(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(main, []byte("# v0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := make(chan struct{}, 10)
	f, err := newFileWatcher(dir, 300*time.Millisecond, out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Sync([]string{"main.tf"})

	// Not configuration: an editor's swap file, a state file, a note.
	for _, name := range []string{".main.tf.swp", "terraform.tfstate", "notes.txt", "main.tf~"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-out:
		t.Fatal("a signal for files that are not configuration")
	case <-time.After(time.Second):
	}

	// A burst: five writes of main.tf and a new variables file, each
	// well within the debounce delay of the one before.
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(main, []byte("# v"+string(rune('1'+i))+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := os.WriteFile(filepath.Join(dir, "prod.auto.tfvars"), []byte("a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-out:
	case <-time.After(30 * time.Second):
		t.Fatal("no signal after the configuration changed")
	}
	select {
	case <-out:
		t.Fatal("a burst of changes gave more than one signal")
	case <-time.After(time.Second):
	}
}
