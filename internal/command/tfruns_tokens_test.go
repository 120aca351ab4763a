package command

import (
	"slices"
	"testing"
)

// TestTokenizer: the recorder's tokenizer numbers temporary paths, UUIDs,
// provider hashes and backup times in order of appearance, restores them,
// and, frozen, leaves new values as they are.
func TestTokenizer(t *testing.T) {
	root := tmpPrefix + "TestX,_y123"
	other := tmpPrefix + "TestOther456"
	uuid1, uuid2 := "0a1b2c3d-0000-4111-8222-333344445555", "ffffffff-eeee-dddd-cccc-bbbbbbbbbbbb"
	h1 := "h1:" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456" + "="
	zh := "zh:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tok := newTokenizer(root)
	tests := []struct{ in, want string }{
		{root + "/001/main.tf", "⟦root⟧/001/main.tf"},
		{"path = \"" + other + "/002\"", "path = \"⟦tmp1⟧/002\""},
		{`"lineage": "` + uuid1 + `", "id": "` + uuid2 + `", "again": "` + uuid1 + `"`, `"lineage": "⟦uuid1⟧", "id": "⟦uuid2⟧", "again": "⟦uuid1⟧"`},
		{"hashes = [\"" + h1 + "\", \"" + zh + "\"]", "hashes = [\"⟦hash1⟧\", \"⟦hash2⟧\"]"},
		{"terraform.tfstate.1795769179.backup", "terraform.tfstate⟦backup1⟧"},
		{"not a uuid: 0a1b2c3d-0000-4111-8222-33334444555", "not a uuid: 0a1b2c3d-0000-4111-8222-33334444555"},
		{"h1:short=", "h1:short="},
	}
	for _, tc := range tests {
		if got := tok.text(tc.in); got != tc.want {
			t.Errorf("text(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := tok.restore(tc.want); got != tc.in {
			t.Errorf("restore(%q) = %q, want %q", tc.want, got, tc.in)
		}
	}
	tok.frozen = true
	newUUID := "12345678-1234-1234-1234-123456789abc"
	if got, want := tok.text(uuid2+" "+newUUID), "⟦uuid2⟧ "+newUUID; got != want {
		t.Errorf("frozen text = %q, want %q", got, want)
	}
	if got := tok.restore("⟦uuid9⟧"); got != "⟦uuid9⟧" {
		t.Errorf("unknown token restored as %q", got)
	}
}

func TestUnreplayable(t *testing.T) {
	for in, want := range map[string]bool{
		`address = "http://127.0.0.1:8080/state"`:       true,
		`source = "localhost:1234/acme/thing"`:          true,
		`conn_str = "postgres://u@h/db"`:                true,
		`TF_REATTACH_PROVIDERS={"x":{}}`:                true,
		`input = "127.0.0.1"`:                           false,
		`comment = "localhost: is where it runs"`:       false,
		`resource "terraform_data" "a" { input = "x" }`: false,
	} {
		if got := unreplayable(in); got != want {
			t.Errorf("unreplayable(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestPathRefs(t *testing.T) {
	in := `-state=../s.tfstate path = "` + tmpPrefix + `TestA,_b12/003/x" source = "../mod"` + "\nTF_DATA=" + tmpPrefix + "TestC9/001,next"
	want := []string{"../s.tfstate", tmpPrefix + "TestA,_b12/003/x", "../mod", tmpPrefix + "TestC9/001"}
	if got := pathRefs(in); !slices.Equal(got, want) {
		t.Errorf("pathRefs = %q, want %q", got, want)
	}
}
