#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target (Fuzz/Corpus/<target>/) from the project's own
files: the cassettes in Recordings/, the scripts in Scenarios/, the generated vector files in
Vectors/generated (also rewritten in the layouts of AMCL's published files), the hand-made test
fixtures, and a few hand-made bad inputs. It never reads ../shared nor any file cut from upstream
data (AMCL's vector files, the upstream SDK's recording). Each seed is cut to a size the target
reads quickly (a few events, blocks or tests); the folders are replaced. Run from anywhere:
    python3 Fuzz/make-corpus.py
"""
import base64
import hashlib
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
SEPARATOR = b"\n%%\n"


def path(*parts):
    return os.path.join(ROOT, *parts)


def read(*parts):
    with open(path(*parts), "rb") as handle:
        return handle.read()


def listing(folder, suffixes):
    folder = path(folder)
    found = []
    for base, _, files in os.walk(folder):
        for name in files:
            if name.endswith(suffixes):
                found.append(os.path.relpath(os.path.join(base, name), ROOT))
    return sorted(found)


class Target:
    def __init__(self, name):
        self.name = name
        self.folder = os.path.join(CORPUS, name)
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        self.count = 0

    def add(self, label, data):
        if isinstance(data, str):
            data = data.encode()
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-")[:60]
        digest = hashlib.sha1(data).hexdigest()[:8]
        with open(os.path.join(self.folder, f"{safe}-{digest}"), "wb") as handle:
            handle.write(data)
        self.count += 1


def cassette(name):
    return json.loads(read("Recordings", name))


def body_bytes(body):
    if "base64" in body:
        return base64.b64decode(body["base64"])
    return body.get("text", "").encode()


def trimmed_cassette(document, events):
    copy = dict(document)
    copy["events"] = document["events"][:events]
    return json.dumps(copy, indent=2, sort_keys=True).encode() + b"\n"


# --- OrderedJSON -------------------------------------------------------------------------------
def ordered_json():
    target = Target("FuzzOrderedJSON")
    auth = cassette("authenticate.json")
    for index in (0, 3, 30):
        target.add(f"event-{index}", json.dumps(auth["events"][index]))
    target.add("settings-body", body_bytes(auth["events"][0]["response"]["body"]))
    target.add("suite-vector", json.dumps(json.loads(read("Vectors/generated/access-number.json")).get("testGroups", [])[:1]))
    for label, text in [
        ("numbers", '[0, -0, 1.5e3, -2E-7, 123456789012345678901234567890, 1e400, 0.0000001]'),
        ("escapes", '{"a\\u0000b": "\\ud83d\\ude00 \\n\\t\\"\\\\\\/", "\\u00e9": "é"}'),
        ("bom", "\ufeff{\"a\": [true, false, null]}"),
        ("duplicate", '{"events": [1], "events": []}'),
        ("deep", "[" * 600 + "]" * 600),
        ("lone-surrogate", '"\\ud800"'),
        ("trailing-comma", '{"a": 1,}'),
        ("leading-zero", '[01]'),
        ("control", '"a\x01b"'),
        ("bad-utf8", b'"\xff\xfe"'),
        ("empty-containers", '{"": {}, "x": [[], {}]}'),
    ]:
        target.add(label, text)
    return target


# --- Cassettes ---------------------------------------------------------------------------------
def cassettes():
    target = Target("FuzzCassette")
    for name in ("testBackend.json", "testNoInit.json", "testInit.json", "setBackend.json", "testUsers1.json"):
        target.add(name, read("Recordings", name))
    for name, events in (("authenticate.json", 6), ("otp.json", 12), ("ds-first-login.json", 6), ("mfa-qr-login.json", 8),
                         ("access-number-logout.json", 10), ("register-email.json", 5)):
        target.add(f"{name}-first{events}", trimmed_cassette(cassette(name), events))
    base = json.loads(read("Recordings", "testInit.json"))

    def variant(label, change):
        document = json.loads(json.dumps(base))
        change(document)
        target.add(label, json.dumps(document, indent=2, sort_keys=True))

    def first_http(document):
        return next(event for event in document["events"] if event.get("type") == "http" and "response" in event)

    variant("status-minus-1", lambda d: first_http(d)["response"].__setitem__("status", -1))
    variant("status-1000", lambda d: first_http(d)["response"].__setitem__("status", 1000))
    variant("format-0", lambda d: d.__setitem__("formatVersion", 0))
    variant("format-2", lambda d: d.__setitem__("formatVersion", 2))
    variant("format-float", lambda d: d.__setitem__("formatVersion", 1.5))
    variant("empty-url", lambda d: first_http(d)["request"].__setitem__("url", ""))
    variant("header-crlf", lambda d: first_http(d)["response"]["headers"].append({"name": "X\r\nY", "value": "1"}))
    variant("timing-1e19", lambda d: first_http(d).__setitem__("timings", {"totalMs": 1e19}))
    variant("no-events", lambda d: d.pop("events"))
    text = read("Recordings", "testInit.json").decode()
    target.add("duplicate-events", text.replace('"events": [', '"events": [], "events": [', 1))
    return target


# --- Scenario scripts --------------------------------------------------------------------------
def scenario_scripts():
    target = Target("FuzzScenarioScript")
    for name in listing("Scenarios", (".yaml", ".yml", ".json")):
        data = read(name)
        if len(data) <= 16384:
            target.add(name, data)
    target.add("json-script", json.dumps({"name": "j", "steps": [{"sdk": "initialize", "with": {"backend": "$backend"}},
                                                                  {"clock": "wait", "with": {"seconds": 5}}]}))
    for label, text in [
        ("anchors", "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nname: t\nsteps: []\n"),
        ("deep", "name: t\nsteps: " + "[" * 200 + "]" * 200 + "\n"),
        ("wait-overflow", "name: t\nsteps:\n  - clock: wait\n    with: {seconds: 9223372036854775807}\n"),
        ("start-time", "name: t\nstartTime: 9223372036854775807\nsteps:\n  - clock: wait\n    with: {seconds: 1}\n"),
        ("poll", "name: t\nsteps:\n  - browser: poll\n    with: {attempts: 99999999999}\n"),
        ("huge-number", "name: t\nseed: 1e400\nsteps: []\n"),
        ("duplicate-keys", "name: a\nname: b\nsteps: []\n"),
        ("tabs", "name: t\nsteps:\n\t- sdk: initialize\n"),
    ]:
        target.add(label, text)
    return target


# --- AMCL vectors ------------------------------------------------------------------------------
def generated_tests(suite, curve="bn254cx", count=4):
    """The first `count` tests of a generated suite, alternating between its groups."""
    groups = [[test for test in group.get("tests", []) if "MESSAGE" not in test]  # AMCL's challenge has no message
              for group in json.loads(read("Vectors/generated", curve, suite + ".json"))["testGroups"]]
    tests = []
    for index in range(max(len(group) for group in groups)):
        for group in groups:
            if index < len(group) and len(tests) < count:
                tests.append(group[index])
    return tests


C_TWO_PASS = ["MS1", "MS2", "SS1", "SS2", "SERVER_SECRET", "MPIN_ID_HEX", "HASH_MPIN_ID_HEX", "DATE", "PIN1", "PIN2",
              "CS1", "CS2", "CLIENT_SECRET", "TP1", "TP2", "TIME_PERMIT", "TOKEN", "X", "U", "UT", "SEC", "Y", "V",
              "SERVER_OUTPUT"]
# (layout key, generated key): the layouts of AMCL's published M-Pin files (see Vectors/README.md).
LAYOUTS = {
    "c-two-pass": [(key, key) for key in C_TWO_PASS],
    "c-one-pass": [("TimeValue", "TIME_VALUE")] + [(key, "V" if key == "SEC" else key) for key in C_TWO_PASS if key != "V"],
    "js-two-pass": [(key, key) for key in ["MPIN_ID_HEX", "SS1", "SS2"]] + [("ServerSecret", "SERVER_SECRET")]
                   + [(key, key) for key in ["SERVER_SECRET", "CS1", "CS2", "CLIENT_SECRET", "DATE", "TP1", "TP2",
                                             "TIME_PERMIT", "PIN1", "PIN2", "TOKEN", "Y", "U", "UT", "X", "V"]],
    "js-one-pass": [(key, key) for key in ["MPIN_ID_HEX", "SS1", "SS2", "SERVER_SECRET", "CS1", "CS2", "CLIENT_SECRET",
                                           "TOKEN", "DATE", "TP1", "TP2", "TIME_PERMIT", "PIN1", "PIN2", "U", "UT", "X",
                                           "Y"]] + [("SEC", "V"), ("TimeValue", "TIME_VALUE")],
}


def layout_entries(layout, tests):
    entries = []
    for test in tests:
        entries.append({key: test[source] for key, source in LAYOUTS[layout] if source in test})
    return entries


def layout_text(entries, header):
    blocks = ["".join(f"{key} = {value},\n" for key, value in entry.items()) for entry in entries]
    return f"# {header}\n\n" + "\n".join(blocks)


def amcl_vectors():
    target = Target("FuzzAMCLVectors")
    for curve in ("bn254cx", "bn254"):
        two_pass = generated_tests("mpin-two-pass", curve)
        one_pass = generated_tests("mpin-one-pass", curve)
        target.add(f"c-two-pass-{curve}.txt", layout_text(layout_entries("c-two-pass", two_pass[:2]),
                                                         f"M-Pin two-pass, curve {curve.upper()}"))
        entries = layout_entries("c-two-pass", two_pass[:2])
        for number, entry in enumerate(entries):
            entry["mpin_id"] = bytes.fromhex(entry["MPIN_ID_HEX"]).decode()
            entry["test_no"] = number
        target.add(f"c-two-pass-{curve}.json", json.dumps(entries, indent=1))
        target.add(f"c-one-pass-{curve}.json", json.dumps(layout_entries("c-one-pass", one_pass[:2]), indent=1))
        target.add(f"js-two-pass-{curve}.json", json.dumps(layout_entries("js-two-pass", two_pass[:2]), indent=1))
        target.add(f"js-one-pass-{curve}.json", json.dumps(layout_entries("js-one-pass", one_pass[1:3]), indent=1))
    # The AMCL-C generated layout: a TEST block with the M-Pin Full values, and a pairing block.
    full = generated_tests("mpin-full", count=1)[0]
    block = {"TEST": 0}
    block.update({key: value for key, value in full.items() if key not in ("tcId", "comment", "flags", "result", "expectedError")})
    target.add("generated-test-block.txt", layout_text([block], "values of the M-Pin Full suite, curve BN254CX"))
    pairing = json.loads(read("Vectors/generated/bn254cx/pairing.json"))["testGroups"][0]["tests"][0]
    target.add("generated-pair-test.txt", layout_text([{"PAIR_TEST": 0, "A": pairing["A"], "B": pairing["B"], "AQ": pairing["AQ"],
                                                        "BP": pairing["BP"], "PAIRING": pairing["PAIRING"]}], "pairing, curve BN254CX"))
    for name in listing("Tests/TestVectorsTests/Fixtures", (".txt", ".json")):
        target.add(name, read(name))
    for label, text in [
        ("one-pass-nothing", '[{"TimeValue": 5}]'),
        ("empty", ""),
        ("no-equals", "MS1 5eed\n"),
        ("odd-hex", "MS1 = 0bc,\nMS2 = zz,\n"),
        ("huge-date", "DATE = 99999999999999999999,\nPIN1 = -1,\n"),
        ("fp", "# FP ARITHMETICS - CURVE: BN254_CX\n\n#test1\nFP_1 = 03\nFP_2 = F63C49\nFPadd = F63C4C\n#FPexp = 01\n"),
        ("fp2", "# FP2 ARITHMETICS - CURVE: BN254\n\n# test 2\nFP2_1 = [01,02]\nFP2_2 = [03,04]\nFP2add = [04,06]\n"),
        ("ecp", "# ECP ARITHMETICS - CURVE: BN254_CX\n\n#test1\nECP1 = 01:02\nECPinf = 1\n"),
        ("fp12-deep", "# FP12 ARITHMETICS\n\n#test1\nFP12_1 = " + "[" * 50 + "]" * 50 + "\n"),
    ]:
        target.add(label, text)
    return target


# --- Our vector files --------------------------------------------------------------------------
def suite_vectors():
    target = Target("FuzzSuiteVectors")
    for name in listing("Vectors/generated", (".json",)):
        document = json.loads(read(name))
        groups = document.get("testGroups", [])[:2]
        for group in groups:
            group["tests"] = group.get("tests", [])[:2]
        trimmed = dict(document)
        trimmed["testGroups"] = groups
        trimmed["numberOfTests"] = sum(len(group["tests"]) for group in groups)
        target.add(name, json.dumps(trimmed, indent=2))
    for label, text in [
        ("no-groups", '{"suite": "access-number", "testGroups": []}'),
        ("unknown-suite", '{"suite": "nothing", "testGroups": [{"tests": [{"tcId": 1}]}]}'),
        ("acceptable", '{"suite": "access-number", "testGroups": [{"tests": [{"tcId": 1, "result": "acceptable"}]}]}'),
        ("params", '{"suite": "pin-mapping", "testGroups": [{"maxPIN": -1, "pinBits": 99, "tests": [{"tcId": 1}]}]}'),
    ]:
        target.add(label, text)
    return target


# --- Legacy recorded data ----------------------------------------------------------------------
def legacy_exchanges(name):
    """The HTTP events of one of the project's cassettes in the upstream SDK harness's recorded-data
    shape (a list of {request: {context, data, method, url}, response: {data, error, headers,
    httpStatus, success}}), the context named after the cassette's test."""
    context = "@" + name[:-len(".json")]
    exchanges = []
    for event in cassette(name)["events"]:
        if event.get("type") != "http" or event.get("actor") != "sdk" or "response" not in event:
            continue
        request, response = event["request"], event["response"]
        exchanges.append({
            "request": {"context": context, "data": body_bytes(request["body"]).decode(errors="replace"),
                        "method": request["method"], "url": request["url"]},
            "response": {"data": body_bytes(response["body"]).decode(errors="replace"), "error": "",
                         "headers": {header["name"]: header["value"] for header in response["headers"]},
                         "httpStatus": response["status"], "success": 200 <= response["status"] < 300},
        })
    return exchanges


def legacy_import():
    target = Target("FuzzLegacyImport")
    run = []
    for name in ("testInit.json", "testBackend.json", "setBackend.json", "testUsers1.json", "testRegister1.json",
                 "testAuthenticate1.json"):
        exchanges = legacy_exchanges(name)
        run.extend(exchanges)
        target.add(f"test-{name}", json.dumps(exchanges[:6], indent="\t"))
    for count in (3, 8, 20):
        target.add(f"run-first{count}", json.dumps(run[:count], indent="\t"))
    first = run[0]

    def variant(label, change):
        copy = json.loads(json.dumps(first))
        change(copy)
        target.add(label, json.dumps([copy], indent="\t"))

    variant("status-minus-1", lambda e: e["response"].__setitem__("httpStatus", -1))
    variant("status-float", lambda e: e["response"].__setitem__("httpStatus", 2e30))
    variant("no-context", lambda e: e["request"].pop("context"))
    variant("headers-list", lambda e: e["response"].__setitem__("headers", ["a"]))
    variant("bad-url", lambda e: e["request"].__setitem__("url", "::"))
    return target


# --- Point and scalar decoding -----------------------------------------------------------------
def crypto():
    target = Target("FuzzCrypto")
    values = {}
    tests = generated_tests("mpin-two-pass", count=2) + generated_tests("pairing", count=2)
    for test in tests:
        for key, value in sorted(test.items()):
            if isinstance(value, str) and re.fullmatch(r"(?:[0-9a-f]{2})+", value):
                values.setdefault(len(value) // 2, []).append((key, bytes.fromhex(value)))

    def add(label, operation, curve_bit, payload):
        target.add(label, bytes([(operation << 1) | curve_bit]) + payload)

    for key, value in values.get(65, [])[:4]:
        add(f"g1-{key}", 0, 0, value)
        add(f"g1-compressed-{key}", 0, 0, bytes([2 + (value[-1] & 1)]) + value[1:33])
    for key, value in values.get(128, [])[:3]:
        add(f"g2-{key}", 1, 0, value)
    for key, value in values.get(32, [])[:3]:
        add(f"fp-{key}", 2, 0, value)
        add(f"fr-{key}", 3, 0, value)
    for key, value in values.get(384, [])[:2]:
        add(f"gt-{key}", 4, 0, value)
    g1 = values[65][0][1]
    g2 = values[128][0][1]
    add("mpin-recombine-g1", 5, 0, g1 + g1)
    add("mpin-pairing", 5, 0, g2 + g1)
    add("g1-infinity", 0, 0, b"\x00")
    add("g1-bad-prefix", 0, 1, b"\x05" + g1[1:])
    add("fp-modulus", 2, 0, bytes.fromhex("2400000008702a0db0bddf647a6366d3243fd6ee18093ee1be6623ef5c1b55b3"))
    add("g2-zero", 1, 1, bytes(128))
    return target


# --- SDK responses -----------------------------------------------------------------------------
def sdk_responses():
    target = Target("FuzzSDKResponses")
    for name, flavour in (("authenticate.json", None), ("otp.json", None), ("register-email.json", None),
                          ("access-number-logout.json", None), ("revoked.json", None), ("wrong-pin-blocked.json", None),
                          ("mfa-qr-login.json", "mfaPlatform"), ("mfa-authz-login.json", "mfaPlatform")):
        parts = [flavour.encode()] if flavour else []
        for event in cassette(name)["events"]:
            if event.get("type") != "http" or event.get("actor") != "sdk":
                continue
            response = event.get("response")
            if response is None:
                parts.append(b"!")
                continue
            parts.append(str(response["status"]).encode() + b"\n" + body_bytes(response["body"]))
        target.add(name, SEPARATOR.join(parts[:24]))
    target.add("settings-not-object", b"200\n[1, 2]")
    target.add("settings-bad-urls", b'200\n{"registerURL": "/", "mpinAuthServerURL": "ws://x", "accessNumberDigits": 1e400, "cSum": "1"}')
    return target


# --- SDK storage -------------------------------------------------------------------------------
def sdk_storage():
    target = Target("FuzzSDKStorage")
    mpin_id = json.dumps({"mobile": 1, "issued": "2026-01-01 00:00:00.000000", "userID": "bob", "salt": "5bd4c4da57a1d8caac3867e869c2a004"})
    mpin_hex = mpin_id.encode().hex()
    token = generated_tests("mpin-two-pass", count=1)[0]["TOKEN"]

    def pair(secure, non_secure):
        return (secure if isinstance(secure, bytes) else json.dumps(secure, indent="\t").encode()) + SEPARATOR + \
            (non_secure if isinstance(non_secure, bytes) else json.dumps(non_secure, indent="\t").encode())

    entry = {"id": "bob", "backend": "127.0.0.1:8005", "state": "REGISTERED", "deviceName": "Phone",
             "timePermitCache": {"date": 20454, "timePermit": "04" + "11" * 64}}
    target.add("v1-registered", pair({"version": 1, "data": {mpin_hex: {"token": token}}}, {"version": 1, "data": {mpin_hex: entry}}))
    activated = dict(entry, state="ACTIVATED")
    target.add("v1-activated", pair({"version": 1, "data": {mpin_hex: {"regOTT": "abc"}}}, {"version": 1, "data": {mpin_hex: activated}}))
    mfa = dict(entry, customerId="c-1", appId="OIDC")
    target.add("v1-mfa", pair({"version": 1, "data": {mpin_hex: {"token": token}}}, {"version": 1, "data": {mpin_hex: mfa}}))
    legacy_user = {"state": "REGISTERED", "timePermitCache": {"date": 1, "timePermit": ""}}
    target.add("core-2.2", pair({mpin_hex: {"token": token}}, {"http://127.0.0.1:8005": {mpin_hex: legacy_user}}))
    target.add("no-id", pair({"version": 1, "data": {}}, {"version": 1, "data": {mpin_hex: {"state": "REGISTERED"}}}))
    target.add("secure-missing", b"-" + SEPARATOR + json.dumps({"version": 1, "data": {mpin_hex: entry}}).encode())
    target.add("bad-version", pair({"version": 2, "data": {}}, b"{}"))
    target.add("not-json", b"{not json" + SEPARATOR + b"[1, 2]")
    target.add("bad-utf8", b"\xff\xfe" + SEPARATOR + b"-")
    target.add("empty-id", pair({"version": 1, "data": {"": {"token": token}}}, {"version": 1, "data": {"": dict(entry)}}))
    return target


# --- Backend requests --------------------------------------------------------------------------
def backend():
    target = Target("FuzzBackend")
    for name, options in (("authenticate.json", None), ("register-email.json", "email"), ("register-code.json", "code"),
                          ("access-number-logout.json", None), ("otp.json", None), ("mfa-qr-login.json", "mfa-platform"),
                          ("mfa-authz-login.json", "mfa-platform"), ("ds-first-login.json", None), ("revoked.json", None)):
        parts = [options.encode()] if options else []
        for event in cassette(name)["events"]:
            if event.get("type") != "http":
                continue
            request = event["request"]
            target_path = re.sub(r"^[a-z]+://[^/]+", "", request["url"]) or "/"
            head = f"{request['method']} {target_path}\n" + "".join(f"{h['name']}: {h['value']}\n" for h in request["headers"])
            parts.append(head.encode() + b"\n" + body_bytes(request["body"]))
        target.add(name, SEPARATOR.join(parts[:16]))
    for label, text in [
        ("query", "GET /dta1/clientSecret?app_id=%zz&expires=1e400&hash_mpin_id=00&signature=x\n\n"),
        ("path", "GET /rps/%ff%fe/x\n\n"),
        ("oss", "milagro-oss\n%%\nPUT /rps/user\nContent-Type: application/json\n\n{\"userId\": 5}"),
        ("pass1", "POST /rps/pass1\n\n{\"mpin_id\": \"zz\", \"UT\": \"04\", \"U\": 1}"),
        ("content-length", "POST /rps/pass2\nContent-Length: 99999999999999999999\n\n{}"),
    ]:
        target.add(label, text)
    return target


def main():
    targets = [ordered_json(), cassettes(), scenario_scripts(), amcl_vectors(), suite_vectors(), legacy_import(), crypto(),
               sdk_responses(), sdk_storage(), backend()]
    for target in targets:
        print(f"{target.name}: {target.count} seeds")


if __name__ == "__main__":
    sys.exit(main())
