package funcs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"
)

// TestDirWork checks that the filesystem functions read relative paths
// from Dir.Work (not the process's directory) and name them in errors as
// given, relative to Dir.Base.
func TestDirWork(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "mod", "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	fns := FunctionsAt(Dir{Work: work, Base: "mod"}, false, time.Time{})
	tests := map[string]struct {
		fn      string
		args    []cty.Value
		want    cty.Value
		wantErr string
	}{
		"file":          {fn: "file", args: []cty.Value{cty.StringVal("a.txt")}, want: cty.StringVal("hello")},
		"fileexists":    {fn: "fileexists", args: []cty.Value{cty.StringVal("a.txt")}, want: cty.True},
		"fileset":       {fn: "fileset", args: []cty.Value{cty.StringVal("."), cty.StringVal("*.txt")}, want: cty.SetVal([]cty.Value{cty.StringVal("a.txt")})},
		"abspath":       {fn: "abspath", args: []cty.Value{cty.StringVal("a.txt")}, want: cty.StringVal(filepath.ToSlash(filepath.Join(work, "mod", "a.txt")))},
		"filemd5":       {fn: "filemd5", args: []cty.Value{cty.StringVal("a.txt")}, want: cty.StringVal("5d41402abc4b2a76b9719d911017c592")},
		"templatefile":  {fn: "templatefile", args: []cty.Value{cty.StringVal("a.txt"), cty.EmptyObjectVal}, want: cty.StringVal("hello")},
		"missing md5":   {fn: "filemd5", args: []cty.Value{cty.StringVal("nope.txt")}, wantErr: "open mod/nope.txt: no such file or directory"},
		"directory md5": {fn: "filemd5", args: []cty.Value{cty.StringVal(".")}, wantErr: "read mod: is a directory"},
		"missing file":  {fn: "file", args: []cty.Value{cty.StringVal("nope.txt")}, wantErr: `no file exists at "nope.txt"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := fns[tc.fn].Call(tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), work) {
					t.Fatalf("error %v, want one containing %q and not naming %s", err, tc.wantErr, work)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}
