package command

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// The one search for secrets in what strata wrote: files, database rows,
// bucket objects, what a state server was sent, log lines.

// secretForms are the forms a secret s can take in stored bytes: as is,
// hex-encoded (how PostgreSQL renders bytea as text) and base64-encoded
// at each of the three alignments (the characters that depend on the
// secret's bytes only).
func secretForms(s string) [][]byte {
	forms := [][]byte{[]byte(s), []byte(hex.EncodeToString([]byte(s)))}
	for k := 0; k < 3; k++ {
		enc := base64.StdEncoding.EncodeToString(append(make([]byte, k), s...))
		if k > 0 {
			enc = enc[4:]
		}
		forms = append(forms, []byte(enc[:len(enc)-4]))
	}
	return forms
}

// secretsInData returns the names of the secrets (name -> value) that
// data holds in any of their forms, sorted.
func secretsInData(data []byte, secrets map[string]string) []string {
	var found []string
	for name, s := range secrets {
		for _, f := range secretForms(s) {
			if bytes.Contains(data, f) {
				found = append(found, name)
				break
			}
		}
	}
	sort.Strings(found)
	return found
}

// secretsInStored returns "NAME in WHERE" for each secret that each of
// the stored blobs (by where they are) holds.
func secretsInStored(stored map[string][]byte, secrets map[string]string) []string {
	var found []string
	for where, data := range stored {
		for _, name := range secretsInData(data, secrets) {
			found = append(found, name+" in "+where)
		}
	}
	sort.Strings(found)
	return found
}

// filesUnder returns every file under dir by its relative path, but the
// provider binaries.
func filesUnder(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			if info.Name() == "providers" {
				return filepath.SkipDir // provider binaries
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[rel] = b
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return files
}

// secretsIn returns "NAME in FILE" for each secret that a file under dir
// holds.
func secretsIn(t *testing.T, dir string, secrets map[string]string) []string {
	t.Helper()
	return secretsInStored(filesUnder(t, dir), secrets)
}

// pgAudit makes every row inserted or updated from now on in the tables
// of the database conn names be copied into public.strata_test_audit,
// so that pgStored sees the rows that were overwritten too (the
// checkpoints of an apply). Call it again to cover tables created since.
func pgAudit(t *testing.T, conn string) {
	t.Helper()
	ctx := context.Background()
	c := pgtest.Conn(t, conn)
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS public.strata_test_audit (tbl text, op text, data text)`,
		`CREATE OR REPLACE FUNCTION public.strata_test_audit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO public.strata_test_audit VALUES (TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME, TG_OP, row_to_json(NEW)::text);
	RETURN NEW;
END $$`,
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range pgTables(t, c) {
		if tb == [2]string{"public", "strata_test_audit"} {
			continue
		}
		q := "CREATE OR REPLACE TRIGGER strata_test_audit AFTER INSERT OR UPDATE ON " + pgx.Identifier{tb[0], tb[1]}.Sanitize() +
			" FOR EACH ROW EXECUTE FUNCTION public.strata_test_audit()"
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// pgTables lists the tables of c's database, but PostgreSQL's own
// catalogs, as schema and name.
func pgTables(t *testing.T, c *pgx.Conn) [][2]string {
	t.Helper()
	rows, err := c.Query(context.Background(), `SELECT table_schema, table_name FROM information_schema.tables
		WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables [][2]string
	for rows.Next() {
		var schema, name string
		if err := rows.Scan(&schema, &name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, [2]string{schema, name})
	}
	return tables
}

// pgStored returns every row of every table of the database conn names
// (but PostgreSQL's own catalogs), as JSON text, by "schema.table[i]".
func pgStored(t *testing.T, conn string) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	c := pgtest.Conn(t, conn)
	stored := map[string][]byte{}
	for _, tb := range pgTables(t, c) {
		ident := pgx.Identifier{tb[0], tb[1]}.Sanitize()
		rows, err := c.Query(ctx, "SELECT row_to_json(x)::text FROM "+ident+" x")
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for rows.Next() {
			var row string
			if err := rows.Scan(&row); err != nil {
				t.Fatal(err)
			}
			stored[fmt.Sprintf("%s.%s[%d]", tb[0], tb[1], i)] = []byte(row)
			i++
		}
		rows.Close()
		if i == 0 {
			stored[tb[0]+"."+tb[1]+" (empty)"] = nil
		}
	}
	return stored
}

// sortedKeys lists the keys of m, sorted, for messages.
func sortedKeys[V any](m map[string]V) string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// TestSecretsInData: the search finds a secret in each form it can be
// stored in, and nothing else.
func TestSecretsInData(t *testing.T) {
	t.Parallel()
	const secret = "sv-0123456789abcdef01234567"
	secrets := map[string]string{"s": secret}
	b64 := func(prefix string) string {
		return base64.StdEncoding.EncodeToString([]byte(prefix + secret + "tail"))
	}
	tests := map[string]struct {
		data string
		want []string
	}{
		"as is":       {data: `{"input":"` + secret + `"}`, want: []string{"s"}},
		"hex":         {data: `{"data":"\\x` + hex.EncodeToString([]byte("x"+secret)) + `"}`, want: []string{"s"}},
		"base64 at 0": {data: b64(""), want: []string{"s"}},
		"base64 at 1": {data: b64("a"), want: []string{"s"}},
		"base64 at 2": {data: b64("ab"), want: []string{"s"}},
		"base64 at 3": {data: b64("abc"), want: []string{"s"}},
		"another":     {data: "sv-0123456789abcdef01234568"},
		"a prefix":    {data: secret[:20]},
		"encrypted":   {data: `{"encrypted_data":"q83vEjRWeJA="}`},
		"empty":       {},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := secretsInData([]byte(tc.data), secrets); !cmp.Equal(got, tc.want, cmpopts.EquateEmpty()) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// openFiles lists the files under dir that strata stores state, plans,
// journals and run records in (the state and its backup, errored.tfstate,
// a plan named tfplan, journals, the run logs and runs.db) and that other
// users may read: strata creates them mode 0600.
func openFiles(t *testing.T, dir string) []string {
	t.Helper()
	var open []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		base := filepath.Base(p)
		ours := strings.HasPrefix(base, "terraform.tfstate") && rel == base || base == "errored.tfstate" || base == "tfplan" ||
			strings.HasSuffix(base, ".journal") || base == "runs.db" || strings.HasPrefix(rel, filepath.Join(".terraform", "runs")+string(filepath.Separator))
		if ours && info.Mode().Perm()&0o077 != 0 {
			open = append(open, fmt.Sprintf("%s (%04o)", rel, info.Mode().Perm()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return open
}
