package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// redactedPath is shown in error messages instead of a sensitive path.
const redactedPath = "(sensitive value)"

// pathArg unmarks a path argument, returning the raw path, a version that is
// safe to show in error messages, and the marks to put on the result.
func pathArg(v cty.Value) (p, display string, marks cty.ValueMarks) {
	raw, marks := v.Unmark()
	p = raw.AsString()
	display = fmt.Sprintf("%q", p)
	if _, sensitive := marks[SensitiveMark]; sensitive {
		display = redactedPath
	}
	return p, display, marks
}

// expandHome replaces a leading "~" with the current user's home directory.
// "~user" forms are not supported.
func expandHome(p string) (string, error) {
	if p == "" || p[0] != '~' {
		return p, nil
	}
	if len(p) > 1 && p[1] != '/' && p[1] != '\\' {
		return "", errors.New("cannot expand user-specific home dir")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, p[1:]), nil
}

// Dir is where the filesystem functions find relative paths: Base, the
// module's directory as messages name it (relative to the working
// directory, as Terraform prints it), inside Work, the absolute working
// directory. An empty Work is the process's working directory.
type Dir struct {
	Work, Base string
}

// resolvePath expands "~" and makes a relative path relative to the base
// directory: the path as messages name it (see onDisk).
func (d Dir) resolvePath(p string) (string, error) {
	p, err := expandHome(p)
	if err != nil {
		return "", fmt.Errorf("failed to expand ~: %w", err)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.Base, p)
	}
	return filepath.Clean(p), nil
}

// onDisk is a path resolvePath returned, resolved against the working
// directory: the path to give the operating system.
func (d Dir) onDisk(p string) string {
	if d.Work == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(d.Work, p)
}

// asGiven names p, as resolvePath returned it, in an error about its
// onDisk form.
func (d Dir) asGiven(err error, p string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == d.onDisk(p) {
		return &fs.PathError{Op: pe.Op, Path: p, Err: pe.Err}
	}
	return err
}

// readFileBytes reads the file at p (resolved against d), reporting
// problems as errors about argument argIdx.
func readFileBytes(d Dir, p, display string, argIdx int) ([]byte, error) {
	full, err := d.resolvePath(p)
	if err != nil {
		return nil, function.NewArgError(argIdx, err)
	}
	src, err := os.ReadFile(d.onDisk(full))
	err = d.asGiven(err, full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, function.NewArgErrorf(argIdx, "no file exists at %s; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", display)
		}
		if display == redactedPath {
			return nil, function.NewArgErrorf(argIdx, "failed to read file %s", display)
		}
		return nil, function.NewArgErrorf(argIdx, "failed to read file: %s", err)
	}
	return src, nil
}

// MakeFileFunc returns the file function, or filebase64 when encBase64 is
// set. file returns the contents of a UTF-8 text file; filebase64 returns
// the Base64 encoding of any file's contents.
func MakeFileFunc(dir Dir, encBase64 bool) function.Function {
	desc := "Reads the contents of a file at the given path and returns them as a string."
	if encBase64 {
		desc = "Reads the contents of a file at the given path and returns them as a base64-encoded string."
	}
	return function.New(&function.Spec{
		Description: desc,
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			p, display, marks := pathArg(args[0])
			src, err := readFileBytes(dir, p, display, 0)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			if encBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(src)).WithMarks(marks), nil
			}
			if !utf8.Valid(src) {
				return cty.UnknownVal(cty.String), fmt.Errorf("contents of %s are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", display)
			}
			return cty.StringVal(string(src)).WithMarks(marks), nil
		},
	})
}

// MakeFileExistsFunc returns the fileexists function, which reports whether
// a regular file exists at the given path.
func MakeFileExistsFunc(dir Dir) function.Function {
	return function.New(&function.Spec{
		Description: "Determines whether a file exists at a given path.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.Bool),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			p, display, marks := pathArg(args[0])
			full, err := dir.resolvePath(p)
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			fi, err := os.Stat(dir.onDisk(full))
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return cty.False.WithMarks(marks), nil
				}
				return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %s", display)
			}
			if fi.Mode().IsRegular() {
				return cty.True.WithMarks(marks), nil
			}
			if fi.IsDir() {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("%s is a directory, not a file", display)
			}
			return cty.UnknownVal(cty.Bool), fmt.Errorf("%s is not a regular file, but %q", display, fi.Mode().String())
		},
	})
}

// MakeFileSetFunc returns the fileset function, which enumerates the
// regular files under a directory whose paths match a glob pattern. The
// pattern syntax supports * and ? (not matching "/"), [...] classes, {a,b}
// alternatives, \ escapes, and ** as a whole path segment matching any
// number of directories. Results are relative to the given path and always
// use forward slashes.
func MakeFileSetFunc(base Dir) function.Function {
	return function.New(&function.Spec{
		Description: "Enumerates a set of regular file names given a path and pattern.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "pattern", Type: cty.String, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			dirVal, dirMarks := args[0].Unmark()
			patVal, patMarks := args[1].Unmark()
			dir, err := expandHome(dirVal.AsString())
			if err != nil {
				return cty.UnknownVal(retType), function.NewArgErrorf(0, "failed to expand ~: %s", err)
			}

			fullPattern := filepath.ToSlash(filepath.Join(dir, patVal.AsString()))
			display := fmt.Sprintf("%q", fullPattern)
			if _, ok := dirMarks[SensitiveMark]; ok {
				display = redactedPath
			} else if _, ok := patMarks[SensitiveMark]; ok {
				display = redactedPath
			}

			matches, err := globFiles(base, fullPattern)
			if err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("failed to glob pattern %s: %s", display, err)
			}

			cleanDir := filepath.Clean(dir)
			vals := make([]cty.Value, 0, len(matches))
			for _, m := range matches {
				rel, err := filepath.Rel(cleanDir, filepath.FromSlash(m))
				if err != nil {
					return cty.UnknownVal(retType), fmt.Errorf("failed to trim path of match (%s): %w", m, err)
				}
				vals = append(vals, cty.StringVal(filepath.ToSlash(rel)))
			}
			if len(vals) == 0 {
				return cty.SetValEmpty(cty.String).WithMarks(dirMarks, patMarks), nil
			}
			return cty.SetVal(vals).WithMarks(dirMarks, patMarks), nil
		},
	})
}

// globFiles returns the regular files matching the slash-separated pattern.
// Relative patterns are resolved against d, but the returned paths keep
// the pattern's own form (relative patterns give relative results).
func globFiles(d Dir, pattern string) ([]string, error) {
	patterns, err := expandBraces(pattern)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]struct{})
	for _, pat := range patterns {
		segs := strings.Split(pat, "/")
		for _, seg := range segs {
			if _, err := path.Match(seg, ""); err != nil {
				return nil, err
			}
		}

		// Everything before the first segment with glob syntax is a literal
		// directory to start walking from.
		k := 0
		for k < len(segs) && !hasGlobMeta(segs[k]) {
			k++
		}
		prefix := strings.Join(segs[:k], "/")
		if k == 1 && segs[0] == "" {
			prefix = "/"
		}

		if k == len(segs) {
			// No glob syntax at all: the pattern names a single file.
			fi, err := os.Stat(d.onDisk(resolveAgainst(d.Base, prefix)))
			if err == nil && fi.Mode().IsRegular() {
				seen[prefix] = struct{}{}
			}
			continue
		}

		root := d.onDisk(resolveAgainst(d.Base, prefix))
		rest := segs[k:]
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && errors.Is(err, fs.ErrNotExist) {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			if !d.Type().IsRegular() {
				// Follow symlinks to regular files; ignore anything else.
				fi, err := os.Stat(p)
				if err != nil || !fi.Mode().IsRegular() {
					return nil
				}
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if matchSegments(rest, strings.Split(rel, "/")) {
				seen[path.Join(prefix, rel)] = struct{}{}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}

	ret := make([]string, 0, len(seen))
	for m := range seen {
		ret = append(ret, m)
	}
	sort.Strings(ret)
	return ret, nil
}

func resolveAgainst(baseDir, p string) string {
	if p == "" {
		p = "."
	}
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(baseDir, p)
}

func hasGlobMeta(seg string) bool {
	return strings.ContainsAny(seg, `*?[\`)
}

// matchSegments matches path segments against pattern segments, where a
// "**" pattern segment matches zero or more path segments.
func matchSegments(pats, parts []string) bool {
	if len(pats) == 0 {
		return len(parts) == 0
	}
	if pats[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if matchSegments(pats[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, err := path.Match(pats[0], parts[0])
	return err == nil && ok && matchSegments(pats[1:], parts[1:])
}

// expandBraces expands {a,b,...} alternatives in a glob pattern into the
// equivalent list of patterns without them.
func expandBraces(pattern string) ([]string, error) {
	start := -1
	inClass := false
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '{':
			start = i
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return []string{pattern}, nil
	}

	// Find the matching close brace and the top-level commas.
	depth := 0
	var commas []int
	end := -1
scan:
	for i := start; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				end = i
				break scan
			}
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		}
	}
	if end < 0 {
		return nil, path.ErrBadPattern
	}

	var alts []string
	last := start + 1
	for _, c := range commas {
		alts = append(alts, pattern[last:c])
		last = c + 1
	}
	alts = append(alts, pattern[last:end])

	var ret []string
	for _, alt := range alts {
		expanded, err := expandBraces(pattern[:start] + alt + pattern[end+1:])
		if err != nil {
			return nil, err
		}
		ret = append(ret, expanded...)
	}
	return ret, nil
}

// MakeAbsPathFunc returns the abspath function, which converts a path to an
// absolute path. Relative paths are taken as relative to dir, like the
// paths given to the other filesystem functions. The result always uses
// forward slashes.
func MakeAbsPathFunc(dir Dir) function.Function {
	return function.New(&function.Spec{
		Description: "Converts the argument to an absolute filesystem path based on the module's base directory.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
			return b.NotNull()
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) {
				p = dir.onDisk(filepath.Join(dir.Base, p))
			}
			abs, err := filepath.Abs(p)
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(filepath.ToSlash(abs)), nil
		},
	})
}

// BasenameFunc returns the last element of a path.
var BasenameFunc = function.New(&function.Spec{
	Description: "Takes a string containing a filesystem path and removes all except the last portion from it.",
	Params: []function.Parameter{
		{Name: "path", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Base(args[0].AsString())), nil
	},
})

// DirnameFunc returns all but the last element of a path.
var DirnameFunc = function.New(&function.Spec{
	Description: "Takes a string containing a filesystem path and removes the last portion from it.",
	Params: []function.Parameter{
		{Name: "path", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(filepath.Dir(args[0].AsString())), nil
	},
})

// PathExpandFunc replaces a leading "~" in a path with the current user's
// home directory.
var PathExpandFunc = function.New(&function.Spec{
	Description: "Takes a filesystem path that might begin with a `~` segment, and if so it replaces that segment with the current user's home directory path.",
	Params: []function.Parameter{
		{Name: "path", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.String),
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull()
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		p, err := expandHome(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(p), nil
	},
})

// MakeTemplateFileFunc returns the templatefile function, which reads a
// file (relative to dir) and renders it as a template with the given
// variables. funcsCb returns the functions available inside the template.
func MakeTemplateFileFunc(dir Dir, funcsCb func() map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Description: "Reads the file at the given path and renders its content as a template using the supplied set of template variables.",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowMarked: true},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			p, display, marks := pathArg(args[0])
			src, err := readFileBytes(dir, p, display, 0)
			if err != nil {
				return cty.DynamicVal, err
			}
			expr, diags := hclsyntax.ParseTemplate(src, p, hcl.InitialPos)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			ret, err := renderTemplate(expr, args[1], funcsCb())
			if err != nil {
				return cty.DynamicVal, err
			}
			return ret.WithMarks(marks), nil
		},
	})
}

// renderTemplate evaluates a parsed template with the variables in varsArg
// (a map or object; argument index 1 of the calling function) and the given
// functions.
func renderTemplate(expr hcl.Expression, varsArg cty.Value, funcs map[string]function.Function) (cty.Value, error) {
	varsVal, varsMarks := varsArg.Unmark()
	ty := varsVal.Type()
	if ty != cty.DynamicPseudoType && !ty.IsMapType() && !ty.IsObjectType() {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	if !varsVal.IsKnown() {
		return cty.DynamicVal.WithMarks(varsMarks), nil
	}

	vars := make(map[string]cty.Value)
	for it := varsVal.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
		vars[name] = v
	}

	// Report references to missing variables up front, with a clearer
	// message than the generic unknown-variable diagnostic.
	for _, traversal := range expr.Variables() {
		root := traversal.RootName()
		if _, ok := vars[root]; !ok {
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", root, traversal[0].SourceRange())
		}
	}

	ctx := &hcl.EvalContext{
		Variables: vars,
		Functions: funcs,
	}
	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return val.WithMarks(varsMarks), nil
}

// recursiveTemplateFunc returns a stand-in for a template function that is
// used inside templates: it has the same signature but always fails, so
// that templates cannot render other templates.
func recursiveTemplateFunc(name string, orig function.Function) function.Function {
	return function.New(&function.Spec{
		Description: orig.Description(),
		Params:      orig.Params(),
		VarParam:    orig.VarParam(),
		Type:        function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			return cty.DynamicVal, fmt.Errorf("cannot recursively call %s from inside another template function", name)
		},
	})
}
