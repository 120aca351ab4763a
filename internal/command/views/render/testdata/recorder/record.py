#!/usr/bin/env python3
"""Re-records the golden files of package render from Terraform.

Needs terraform (1.11) and go. Builds the test provider in this directory,
runs every scenario of scenarios.txt (name|before config|after config|
env|plan args|command run after the first apply) in a scratch directory,
and rewrites ../plans/*.{json,golden} and ../states/*.{json,golden}.

    python3 record.py [SCENARIO...]
"""
import concurrent.futures as cf
import json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CFG = os.path.join(HERE, "cfg")
PLANS = os.path.join(HERE, "..", "plans")
STATES = os.path.join(HERE, "..", "states")
WORK = tempfile.mkdtemp(prefix="render-record-")
HDR = 'terraform {\n  required_providers {\n    tp = { source = "example/tp" }\n  }\n}\n'
# Scenarios whose prior state is also recorded for StateResource tests.
STATE_CASES = ("outputs tp_update_full tp_update_outer update_obj update_sensobj update_multi "
               "tp_js12 tp_update_blocks tp_sens_ba update_json tp_update_unk tp_nsnull tp_shift "
               "tp_delete_strs update_map update_list delete_fe delete_count values "
               "tp_sensitive_blocks_update").split()


def exact_json(raw):
    """Compacts JSON text keeping numbers exactly as written."""
    d = json.loads(raw, parse_float=lambda x: "\x00NUM" + x)
    return d


def dump(d):
    js = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return re.sub(r'"\\u0000NUM([^"]*)"', r"\1", js) + "\n"


def sh(cmd, cwd, env):
    return subprocess.run(cmd, cwd=cwd, env=env, shell=True, capture_output=True, text=True)


def run(line):
    name, before, after, envs, args, pre = line.split("|")
    d = os.path.join(WORK, name)
    shutil.copytree(os.path.join(CFG, "mod"), os.path.join(d, "mod"))
    env = dict(os.environ, TF_CLI_CONFIG_FILE=os.path.join(WORK, "tfrc"), TP_REPLACE="", TP_UNKNOWN_CV="")
    main = os.path.join(d, "main.tf")
    if before != "-":
        open(main, "w").write(HDR + open(os.path.join(CFG, before + ".tf")).read())
        sh("terraform init -no-color", d, env)
        apply = sh("terraform apply -auto-approve -no-color", d, env).stdout
        if name in STATE_CASES:
            state = json.loads(sh("terraform show -json", d, env).stdout, parse_float=lambda x: "\x00NUM" + x)
            v = state.get("values", {})
            keep = {"resources": v.get("root_module", {}).get("resources", []), "outputs": v.get("outputs", {})}
            for r in keep["resources"]:
                r.pop("provider_name", None)
                r.pop("schema_version", None)
            open(os.path.join(STATES, name + ".json"), "w").write(dump(keep))
            open(os.path.join(STATES, name + ".golden"), "w").write(sh("terraform show -no-color", d, env).stdout)
            i = apply.find("\nOutputs:\n\n")
            if i >= 0:
                open(os.path.join(STATES, name + ".apply.golden"), "w").write(apply[i + len("\nOutputs:\n\n"):])
        if pre:
            sh("terraform " + pre, d, env)
    for e in filter(None, envs.split(",")):
        k, v = e.split("=", 1)
        env[k] = v
    open(main, "w").write(HDR + open(os.path.join(CFG, after + ".tf")).read())
    sh("terraform init -no-color", d, env)
    txt = sh(f"terraform plan -no-color -out=p.tfplan {args}", d, env).stdout
    plan = json.loads(sh("terraform show -json p.tfplan", d, env).stdout, parse_float=lambda x: "\x00NUM" + x)

    out = ""
    head = "Terraform will perform the following actions:\n\n"
    m = txt.find(head)
    if m >= 0:
        rest = txt[m + len(head):]
        out = rest[:rest.find("\nPlan: ")]
    o = txt.find("Changes to Outputs:\n")
    if o >= 0:
        rest = txt[o:]
        out += rest[:rest.find("\n\n") + 1]
    if not out:
        print("no changes recorded for", name)
        return
    open(os.path.join(PLANS, name + ".golden"), "w").write(out)
    keep = {"resource_changes": plan.get("resource_changes", []), "output_changes": plan.get("output_changes", {})}
    open(os.path.join(PLANS, name + ".json"), "w").write(dump(keep))


def main():
    bindir = os.path.join(WORK, "bin")
    subprocess.run(["go", "build", "-o", os.path.join(bindir, "terraform-provider-tp"), "."], cwd=HERE, check=True)
    open(os.path.join(WORK, "tfrc"), "w").write(
        'provider_installation {\n  dev_overrides {\n    "example/tp" = "%s"\n  }\n  direct {}\n}\n' % bindir)
    lines = [l.strip() for l in open(os.path.join(HERE, "scenarios.txt")) if l.strip() and not l.startswith("#")]
    if len(sys.argv) > 1:
        lines = [l for l in lines if l.split("|")[0] in sys.argv[1:]]
    with cf.ThreadPoolExecutor(6) as ex:
        list(ex.map(run, lines))
    schema_dir = os.path.join(WORK, "schema")
    os.makedirs(schema_dir)
    open(os.path.join(schema_dir, "main.tf"), "w").write(HDR)
    env = dict(os.environ, TF_CLI_CONFIG_FILE=os.path.join(WORK, "tfrc"))
    schema = sh("terraform providers schema -json", schema_dir, env).stdout
    open(os.path.join(HERE, "..", "tp_schema.json"), "w").write(schema)
    shutil.rmtree(WORK)


if __name__ == "__main__":
    main()
