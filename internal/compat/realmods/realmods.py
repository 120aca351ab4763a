#!/usr/bin/env python3
"""Run real root configurations through terraform and strata and compare.

Usage: realmods.py [-only NAME,...] CONFIGS OUT

Each line of CONFIGS names one root configuration:

    name | repository | directory in it | fixup (optional shell, run in the copy)

The repositories are looked for in $REALMODS_SRC (default /tmp/realmods-src)
as plain directories named owner+name, else extracted there from the bare
git directories the search tool's fetch leaves in $REALMODS_MIRROR (default
/work/.mirror/owner+name/repo). Each tool gets its own copy of the
repository, and runs, in the configuration's directory: init, validate
-json, plan -out, show -json PLAN, apply PLAN, plan -detailed-exitcode,
output -json, show -json, destroy; then each plans in the directory the
other initialised (lock files, modules.json and state must suit both).

Exit codes, the JSON documents (normalised: versions, timestamps, uuids,
the copies' paths; values that are random or time based are counted as
"masked" rather than compared) and the key lines of the human output are
compared. OUT/NAME holds every step's output and report.json (with the time
of each step); OUT/summary.json all the reports; one line per configuration
is printed.

Environment: STRATA and TERRAFORM (the binaries, default on PATH),
TF_CLI_CONFIG_FILE (a CLI configuration installing the providers from a
filesystem mirror: there is no registry here).
"""
import json, os, re, shutil, subprocess, sys, time

SRC = os.environ.get("REALMODS_SRC", "/tmp/realmods-src")
MIRROR = os.environ.get("REALMODS_MIRROR", "/work/.mirror")
TOOLS = {"terraform": os.environ.get("TERRAFORM", "terraform"),
         "strata": os.environ.get("STRATA", "strata")}

STEPS = [
    ("init", ["init", "-input=false", "-no-color"], None),
    ("validate", ["validate", "-json", "-no-color"], "json"),
    ("plan", ["plan", "-input=false", "-no-color", "-out=rm.tfplan"], None),
    ("showplan", ["show", "-json", "rm.tfplan"], "json"),
    ("apply", ["apply", "-input=false", "-no-color", "rm.tfplan"], None),
    ("plan2", ["plan", "-input=false", "-no-color", "-detailed-exitcode"], None),
    ("output", ["output", "-json"], "json"),
    ("showstate", ["show", "-json"], "json"),
    ("destroy", ["destroy", "-auto-approve", "-input=false", "-no-color"], None),
]

# Attributes whose values differ from run to run (random or time based).
NONDET_KEYS = {"id", "result", "b64_std", "b64_url", "hex", "dec", "bcrypt_hash",
               "private_key_pem", "private_key_openssh", "private_key_pem_pkcs8",
               "public_key_pem", "public_key_openssh", "public_key_fingerprint_md5",
               "public_key_fingerprint_sha256", "cert_pem", "rfc3339", "unix", "year",
               "month", "day", "hour", "minute", "second", "triggers", "keepers",
               "validity_start_time", "validity_end_time", "output", "serial",
               "lineage", "private_key_openssh", "cert_request_pem", "ready_for_renewal",
               "rotation_rfc3339", "rotation_minutes", "output_sha", "output_base64sha256",
               "output_md5", "output_sha256", "output_sha512", "output_base64sha512",
               "content_md5", "content_sha1", "content_sha256", "content_sha512",
               "content_base64sha256", "content_base64sha512", "numeric", "upper", "lower"}
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
DROP = {"terraform_version", "timestamp"}


def run(tool, args, cwd, env):
    t = time.monotonic()
    p = subprocess.run([TOOLS[tool]] + args, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t


def normalize(v, key=None):
    if isinstance(v, dict):
        return {k: normalize(x, k) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        xs = [normalize(x) for x in v]
        if key in ("relevant_attributes",):  # unordered in terraform itself
            xs.sort(key=lambda x: json.dumps(x, sort_keys=True))
        return xs
    if isinstance(v, str):
        return UUID_RE.sub("<uuid>", v)
    return v


def nondet(path, a, b):
    keys = [p for p in path if isinstance(p, str)]
    if any(k in NONDET_KEYS for k in keys):
        return True
    if isinstance(a, str) and isinstance(b, str):
        if TIME_RE.match(a) and TIME_RE.match(b):
            return True
        if len(a) == len(b):
            return True
    return False


def diff(a, b, path=(), out=None, masked=None):
    if out is None:
        out, masked = [], []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append((path + (k,), "<missing>", b[k]))
            elif k not in b:
                out.append((path + (k,), a[k], "<missing>"))
            else:
                diff(a[k], b[k], path + (k,), out, masked)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, path + (i,), out, masked)
    elif a != b:
        if not isinstance(a, (dict, list)) and not isinstance(b, (dict, list)) and nondet(path, a, b):
            masked.append(path)
        else:
            out.append((path, a, b))
    return out, masked


KEY_LINES = re.compile(r"^(Plan: .*|No changes\..*|Apply complete!.*|Destroy complete!.*|"
                       r"(Error|Warning): .*|Changes to Outputs:|"
                       r"Terraform has been successfully initialized!|"
                       r"  # \S+ (will|must|has).*|  [-+~]/?[-+]? .*)$")


def keylines(text):
    text = text.replace("strata", "Terraform").replace("Strata", "Terraform")
    lines = []
    for ln in text.splitlines():
        ln = ln.rstrip()
        if KEY_LINES.match(ln):
            if re.match(r"^  [-+~]", ln):  # values may be random: compare the shape
                ln = re.sub(r'"[^"]*"', '"…"', ln)
                ln = re.sub(r'\b\d+\b', '0', ln)
            lines.append(ln)
    return lines


def short(v):
    s = json.dumps(v, sort_keys=True)
    return s if len(s) < 160 else s[:157] + "..."


def source(repo):
    """The repository's files, extracted from the fetched mirror if need be."""
    path = os.path.join(SRC, repo)
    if os.path.isdir(path):
        return path
    git = os.path.join(MIRROR, repo, "repo")
    if os.path.isdir(os.path.join(git, ".git")):
        git = os.path.join(git, ".git")
    os.makedirs(path)
    subprocess.run("git --git-dir=%s archive HEAD | tar -x -C %s" % (git, path), shell=True, check=True)
    return path


def one(name, repo, sub, fix, out):
    res = {"name": name, "steps": {}, "diffs": [], "times": {}}
    base = os.path.join(out, name)
    shutil.rmtree(base, ignore_errors=True)
    for tool in TOOLS:
        root = os.path.join(base, tool, repo)
        shutil.copytree(source(repo), root, symlinks=True)
        if fix:
            subprocess.run(["bash", "-c", fix], cwd=root, check=True,
                           env=dict(os.environ, REALMODS_SRC=SRC))
    results = {}
    for tool in TOOLS:
        cwd = os.path.join(base, tool, repo, sub)
        env = dict(os.environ, CHECKPOINT_DISABLE="1")
        env.pop("TF_LOG", None)
        results[tool] = {}
        total = 0.0
        for step, args, kind in STEPS:
            rc, so, se, dt = run(tool, args, cwd, env)
            total += dt
            results[tool][step] = (rc, so, se, dt)
            res.setdefault("step_times", {}).setdefault(step, {})[tool] = round(dt, 2)
            with open(os.path.join(base, tool, step + ".out"), "w") as f:
                f.write(so)
            with open(os.path.join(base, tool, step + ".err"), "w") as f:
                f.write(se)
        res["times"][tool] = total
    # Each tool plans in the directory the other initialised and applied:
    # lock files, modules.json and state must suit both. When both fail
    # alike, the configuration is at fault (a file its destroy removed),
    # not what the other tool wrote.
    cross = {}
    for tool, other in (("terraform", "strata"), ("strata", "terraform")):
        cwd = os.path.join(base, other, repo, sub)
        env = dict(os.environ, CHECKPOINT_DISABLE="1")
        rc, so, se, dt = run(tool, ["plan", "-input=false", "-no-color", "-detailed-exitcode", "-lock=false"], cwd, env)
        with open(os.path.join(base, tool, "cross.out"), "w") as f:
            f.write(so + se)
        cross[tool] = (rc, [ln for ln in keylines(so + se) if ln.startswith("Error")])
    res["cross"] = {k: v[0] for k, v in cross.items()}
    if cross["terraform"] != cross["strata"]:
        for tool, other in (("terraform", "strata"), ("strata", "terraform")):
            if cross[tool][0] == 1:
                res["diffs"].append("%s cannot plan in the directory %s initialised: %s" % (
                    tool, other, "; ".join(cross[tool][1])[:300]))
    t, s = results["terraform"], results["strata"]
    for step, args, kind in STEPS:
        rt, rs = t[step][0], s[step][0]
        res["steps"][step] = (rt, rs)
        if rt != rs:
            res["diffs"].append("%s: exit %d (terraform) vs %d (strata)" % (step, rt, rs))
        if kind == "json":
            try:
                ja = normalize(json.loads(t[step][1].replace(os.path.join(base, "terraform"), "<dir>")))
                jb = normalize(json.loads(s[step][1].replace(os.path.join(base, "strata"), "<dir>")))
            except ValueError:
                if (t[step][1].strip() != "") != (s[step][1].strip() != ""):
                    res["diffs"].append("%s: output is JSON for one tool only" % step)
                continue
            d, m = diff(ja, jb)
            for p, a, b in d[:12]:
                res["diffs"].append("%s: %s: %s vs %s" % (step, "/".join(map(str, p)), short(a), short(b)))
            if len(d) > 12:
                res["diffs"].append("%s: ... %d more" % (step, len(d) - 12))
            res.setdefault("masked", {})[step] = len(m)
        else:
            la = keylines((t[step][1] + t[step][2]).replace(os.path.join(base, "terraform"), "<dir>"))
            lb = keylines((s[step][1] + s[step][2]).replace(os.path.join(base, "strata"), "<dir>"))
            if la != lb:
                only_a = [x for x in la if x not in lb]
                only_b = [x for x in lb if x not in la]
                if only_a or only_b:
                    res["diffs"].append("%s: human: terraform only %s; strata only %s" % (
                        step, only_a[:4], only_b[:4]))
                else:
                    res["diffs"].append("%s: human: same lines, other order" % step)
    with open(os.path.join(base, "report.json"), "w") as f:
        json.dump(res, f, indent=1)
    return res


def main():
    args = sys.argv[1:]
    only = None
    if args and args[0] == "-only":
        only = set(args[1].split(","))
        args = args[2:]
    cfgs, out = args
    os.makedirs(out, exist_ok=True)
    rows = []
    for ln in open(cfgs):
        if not ln.strip() or ln.startswith("#"):
            continue
        parts = [p.strip() for p in ln.rstrip("\n").split("|", 3)]
        name, repo, sub, fix = (parts + [""])[:4]
        if only and name not in only:
            continue
        r = one(name, repo, sub, fix, out)
        ok = not r["diffs"]
        print("%-28s %-3s tf %6.1fs strata %6.1fs  %s" % (
            name, "yes" if ok else "no", r["times"]["terraform"], r["times"]["strata"],
            "; ".join(r["diffs"])[:2000]), flush=True)
        rows.append(r)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
