package format

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := map[string]struct {
		old, new string
		want     string
	}{
		"equal": {
			old:  "a\nb\n",
			new:  "a\nb\n",
			want: "",
		},
		"both empty": {
			want: "",
		},
		"one line changed": {
			old: "a\nb\nc\n",
			new: "a\nB\nc\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,3 +1,3 @@
 a
-b
+B
 c
`,
		},
		"context is limited to three lines": {
			old: "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			new: "1\n2\n3\n4\nX\n6\n7\n8\n9\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -2,7 +2,7 @@
 2
 3
 4
-5
+X
 6
 7
 8
`,
		},
		"changes six lines apart share a hunk": {
			old: "a\n1\n2\n3\n4\n5\n6\nb\n",
			new: "A\n1\n2\n3\n4\n5\n6\nB\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,8 +1,8 @@
-a
+A
 1
 2
 3
 4
 5
 6
-b
+B
`,
		},
		"changes seven lines apart get separate hunks": {
			old: "a\n1\n2\n3\n4\n5\n6\n7\nb\n",
			new: "A\n1\n2\n3\n4\n5\n6\n7\nB\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,4 +1,4 @@
-a
+A
 1
 2
 3
@@ -6,4 +6,4 @@
 5
 6
 7
-b
+B
`,
		},
		"deletions listed before insertions": {
			old: "a\nb\nc\nd\n",
			new: "a\nx\ny\nd\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,4 +1,4 @@
 a
-b
-c
+x
+y
 d
`,
		},
		"lines added at the end": {
			old: "a\n",
			new: "a\nb\nc\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1 +1,3 @@
 a
+b
+c
`,
		},
		"lines removed": {
			old: "a\nb\nc\nd\n",
			new: "a\nd\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,4 +1,2 @@
 a
-b
-c
 d
`,
		},
		"old empty": {
			old: "",
			new: "a\nb\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -0,0 +1,2 @@
+a
+b
`,
		},
		"new empty": {
			old: "a\n",
			new: "",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1 +0,0 @@
-a
`,
		},
		"insertion only names the line before": {
			old: "a\nb\nc\nd\ne\nf\ng\nh\n",
			new: "a\nb\nc\nd\ne\nf\nX\ng\nh\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -4,5 +4,6 @@
 d
 e
 f
+X
 g
 h
`,
		},
		"no newline at end of either file": {
			old: "a=1",
			new: "a = 1",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1 +1 @@
-a=1
\ No newline at end of file
+a = 1
\ No newline at end of file
`,
		},
		"only the final newline differs": {
			old: "a\nb",
			new: "a\nb\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+b
`,
		},
		"carriage returns are part of the line": {
			old:  "a\r\nb\r\n",
			new:  "a\nb\r\n",
			want: "--- old/f.tf\n+++ new/f.tf\n@@ -1,2 +1,2 @@\n-a\r\n+a\n b\r\n",
		},
		"repeated line change pairs with its replacement": {
			old: "}\n}\n}\n",
			new: "}\n}  \n}\n",
			want: `--- old/f.tf
+++ new/f.tf
@@ -1,3 +1,3 @@
 }
-}
+}  
 }
`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := UnifiedDiff("f.tf", []byte(tc.old), []byte(tc.new))
			if got != tc.want {
				t.Errorf("wrong diff\ngot:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestUnifiedDiffTerraform compares against the output of
// "terraform fmt -diff -write=false -list=false" run on NAME.tf (a copy of
// testdata/NAME.in.tf), stored in testdata/NAME.diff.
func TestUnifiedDiffTerraform(t *testing.T) {
	diffs, err := filepath.Glob(filepath.Join("testdata", "*.diff"))
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) == 0 {
		t.Fatal("no testdata/*.diff files")
	}
	for _, diffFile := range diffs {
		caseName := strings.TrimSuffix(filepath.Base(diffFile), ".diff")
		t.Run(caseName, func(t *testing.T) {
			in := readFile(t, filepath.Join("testdata", caseName+".in.tf"))
			out := readFile(t, filepath.Join("testdata", caseName+".out.tf"))
			want := string(readFile(t, diffFile))
			if got := UnifiedDiff(caseName+".tf", in, out); got != want {
				t.Errorf("wrong diff\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// Applying the diff's changes must turn old into new, whatever the input.
func TestUnifiedDiffApplies(t *testing.T) {
	inputs := []string{"", "a\n", "a", "a\nb\na\nb\n", "}\n\n}\n  }\n", "x\ny\nz", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"}
	for _, old := range inputs {
		for _, new := range inputs {
			d := UnifiedDiff("f", []byte(old), []byte(new))
			if got := applyUnified(t, old, d); got != new {
				t.Errorf("diff of %q -> %q applies to give %q:\n%s", old, new, got, d)
			}
		}
	}
}

// applyUnified applies a diff produced by UnifiedDiff to old.
func applyUnified(t *testing.T, old, diff string) string {
	t.Helper()
	if diff == "" {
		return old
	}
	oldLines := splitLines([]byte(old))
	var out []string
	next := 0     // next unconsumed line of old
	var prev byte // prefix of the previous diff line
	lines := strings.SplitAfter(diff, "\n")
	for i := 2; i < len(lines) && lines[i] != ""; i++ {
		l := lines[i]
		kind := prev
		prev = l[0]
		switch {
		case strings.HasPrefix(l, "@@ "):
			var start, count int
			rng := strings.Fields(l)[1][1:]
			if s, c, ok := strings.Cut(rng, ","); ok {
				start, count = atoi(t, s), atoi(t, c)
			} else {
				start, count = atoi(t, rng), 1
			}
			if count > 0 {
				start--
			}
			out = append(out, oldLines[next:start]...)
			next = start
		case strings.HasPrefix(l, `\ `):
			if kind == '-' {
				break // the marker applies to a removed line
			}
			out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], "\n")
		case l[0] == ' ':
			out = append(out, l[1:])
			next++
		case l[0] == '-':
			next++
		case l[0] == '+':
			out = append(out, l[1:])
		default:
			t.Fatalf("unexpected diff line %q", l)
		}
	}
	return strings.Join(append(out, oldLines[next:]...), "")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("bad number %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}
