package watch

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// fileWatcher turns changes to configuration and variable files into
// cycles: it watches their directories (editors replace files rather than
// write them in place) and signals once changes have settled for the
// debounce delay.
type fileWatcher struct {
	fw       *fsnotify.Watcher
	debounce time.Duration
	out      chan<- struct{}

	// workDir is the absolute working directory relative paths are in
	// (empty: the process's).
	workDir string

	mu    sync.Mutex
	dirs  map[string]bool
	files map[string]bool
	done  chan struct{}
}

func newFileWatcher(workDir string, debounce time.Duration, out chan<- struct{}) (*fileWatcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if debounce <= 0 {
		debounce = 500 * time.Millisecond
	}
	f := &fileWatcher{fw: fw, workDir: workDir, debounce: debounce, out: out, dirs: map[string]bool{}, files: map[string]bool{}, done: make(chan struct{})}
	go f.loop()
	return f, nil
}

// Sync watches the directories of files, which are the files the last
// cycle read; a new configuration file in one of them counts too.
func (f *fileWatcher) Sync(files []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	want := map[string]bool{}
	f.files = map[string]bool{}
	for _, p := range files {
		abs := f.abs(p)
		f.files[abs] = true
		want[filepath.Dir(abs)] = true
	}
	if len(want) == 0 {
		want[f.abs(".")] = true
	}
	for d := range want {
		if !f.dirs[d] {
			if err := f.fw.Add(d); err == nil {
				f.dirs[d] = true
			}
		}
	}
	for d := range f.dirs {
		if !want[d] {
			_ = f.fw.Remove(d)
			delete(f.dirs, d)
		}
	}
}

// abs is p, relative to the working directory, made absolute.
func (f *fileWatcher) abs(p string) string {
	return filepath.Clean(inDir(f.workDir, p))
}

// inDir is p resolved against dir (the process's directory when dir is
// empty).
func inDir(dir, p string) string {
	if dir == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// relevant reports whether a changed path is configuration or variables.
func (f *fileWatcher) relevant(path string) bool {
	abs := f.abs(path)
	f.mu.Lock()
	known := f.files[abs]
	f.mu.Unlock()
	if known {
		return true
	}
	base := filepath.Base(abs)
	if strings.HasPrefix(base, ".") || strings.HasSuffix(base, "~") {
		return false
	}
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json", ".tfvars", ".tfvars.json"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return false
}

func (f *fileWatcher) loop() {
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-f.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-f.fw.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod || !f.relevant(ev.Name) {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(f.debounce)
			} else {
				timer.Stop()
				timer.Reset(f.debounce)
			}
			fire = timer.C
		case _, ok := <-f.fw.Errors:
			if !ok {
				return
			}
		case <-fire:
			fire = nil
			select {
			case f.out <- struct{}{}:
			default:
			}
		}
	}
}

// Close stops watching.
func (f *fileWatcher) Close() {
	close(f.done)
	_ = f.fw.Close()
}
