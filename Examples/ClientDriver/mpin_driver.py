#!/usr/bin/env python3
"""A driver for `mpin-workbench conform --client -- python3 mpin_driver.py`, and the template for
the driver of any other M-Pin client (docs/conformance.md, "The driver contract").

The contract: the suite runs this program without a shell, in a working folder of the case (the
client keeps its storage there across the case's runs), with the environment

    MPIN_BACKEND          the backend's base URL (GET $MPIN_BACKEND/rps/clientSettings)
    MPIN_FLOW             register, login, register-login, wrong-pin, otp, access-number, logout,
                          platform-login
    MPIN_USER, MPIN_PIN   the user id, and the PIN to enter (a wrong one in wrong-pin)
    MPIN_ACCESS_NUMBER    the browser's access number (access-number, logout)
    MPIN_ACTIVATION_CODE  the code the backend mailed, when it wants one to register
    MPIN_CLIENT_ID        the MFA platform's client id (X-MIRACL-CID), on that flavour only
    MPIN_AUTHORIZE_URL    the MFA platform's authorize URL (a registration's wid, platform-login)
    MPIN_CURVE            BN254CX (this driver knows no other)

It prints one line per SDK call, {"call": NAME, "status": STATUS}, with the Milagro status names,
stops at the first call that does not return OK, and exits 0 whatever the statuses; 3 when the
client has no such flow. Nothing else goes to standard output (diagnostics go to standard error).

To drive another client, keep `main`, `report` and the flows' order, and put your client's calls
in `Client`. This one is a small M-Pin client of its own, in pure Python, written from the
project's docs/protocol.md (sections 1 to 6) and docs/crypto.md (sections 2 to 5): G1 of BN254CX
in affine coordinates, hash to G1, the shares, the token, CLIENT_1 and CLIENT_2. It is slow and
not constant-time: a template and a second client for the suite, not a client to ship.
"""
import hashlib
import json
import os
import secrets
import sys
import urllib.error
import urllib.request

# BN254CX (docs/crypto.md §2.1): y² = x³ + 2 over Fp; G1 has prime order r (cofactor 1).
P = 0x2400000008702A0DB0BDDF647A6366D3243FD6EE18093EE1BE6623EF5C1B55B3
R = 0x2400000008702A0DB0BDDF647A6366D2C43FD6EE0CC906CEBE11C0A636EB1F6D
B = 2
PIN_BITS = 14
MAX_BODY = 16 << 20  # the most bytes of an answer this client reads


class Failure(Exception):
    """A call's failure: its Milagro status and a message."""

    def __init__(self, status, message=""):
        super().__init__(message)
        self.status = status
        self.message = message


# ---- G1 (docs/crypto.md §3, §4) ----

def on_curve(point):
    x, y = point
    return (y * y - x * x * x - B) % P == 0


def decode(text, what):
    """A G1 point from its hex `04 ‖ x ‖ y`, checked on the curve (docs/protocol.md §6.1)."""
    try:
        raw = bytes.fromhex(text)
    except (TypeError, ValueError):
        raise Failure("RESPONSE_PARSE_ERROR", f"{what} is not hex")
    if len(raw) != 65 or raw[0] != 4:
        raise Failure("CRYPTO_ERROR", f"{what} is not a 65-byte G1 point")
    point = (int.from_bytes(raw[1:33], "big"), int.from_bytes(raw[33:], "big"))
    if point[0] >= P or point[1] >= P or not on_curve(point):
        raise Failure("CRYPTO_ERROR", f"{what} is not a point of the curve")
    return point


def encode(point):
    return (b"\x04" + point[0].to_bytes(32, "big") + point[1].to_bytes(32, "big")).hex()


def inverse(v):
    """v⁻¹ mod p for v not divisible by p, by Python's extended Euclid (`pow(v, -1, p)`, Python 3.8
    and later): 2.4 µs where Fermat's v^(p-2) takes 85 µs, so that a scalar multiplication takes
    5.5 ms instead of 38 ms."""
    return pow(v, -1, P)


def add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0]:
        if (a[1] + b[1]) % P == 0:
            return None
        slope = 3 * a[0] * a[0] * inverse(2 * a[1]) % P
    else:
        slope = (b[1] - a[1]) * inverse(b[0] - a[0]) % P
    x = (slope * slope - a[0] - b[0]) % P
    return x, (slope * (a[0] - x) - a[1]) % P


def negate(point):
    return None if point is None else (point[0], (-point[1]) % P)


def multiply(point, k):
    result = None
    k %= R
    while k:
        if k & 1:
            result = add(result, point)
        point = add(point, point)
        k >>= 1
    return result


def map_to_g1(digest):
    """map(h): x = h mod p, stepped up until x³ + 2 is a square; the even root (docs/crypto.md §4)."""
    x = int.from_bytes(digest, "big") % P
    while True:
        v = (x * x * x + B) % P
        if v != 0 and pow(v, (P - 1) // 2, P) == 1:
            y = pow(v, (P + 1) // 4, P)
            return x, (P - y if y & 1 else y)
        x += 1


def hash_id(mpin_id):
    return map_to_g1(hashlib.sha256(mpin_id).digest())


def hash_time_id(date, mpin_id):
    return map_to_g1(hashlib.sha256(date.to_bytes(4, "big") + hashlib.sha256(mpin_id).digest()).digest())


def pin_number(pin):
    """The PIN's decimal digits, in 14 bits (docs/protocol.md §6.3, the integer mapping)."""
    return (int(pin) % 10000) % (1 << PIN_BITS)


# ---- HTTP (docs/protocol.md §1, §4) ----

class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed (docs/protocol.md §4: a 3xx is NETWORK_ERROR)."""

    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def mapped(status, request):
    """The SDK status of a non-200 answer to `request` (docs/protocol.md §4)."""
    special = {
        ("register", 403): "IDENTITY_NOT_AUTHORIZED", ("signature", 400): "IDENTITY_NOT_VERIFIED",
        ("signature", 401): "IDENTITY_NOT_VERIFIED", ("dtaSecret", 408): "REQUEST_EXPIRED",
        ("permit1", 410): "REVOKED", ("permit2", 410): "REVOKED", ("login", 401): "INCORRECT_PIN",
        ("login", 410): "INCORRECT_PIN", ("login", 408): "REQUEST_EXPIRED", ("login", 412): "INCORRECT_ACCESS_NUMBER",
        ("login", 403): "IDENTITY_NOT_AUTHORIZED", ("login", 409): "CLIENT_SECRET_EXPIRED",
    }
    if (request, status) in special:
        return special[(request, status)]
    if status >= 500:
        return "HTTP_SERVER_ERROR"
    if status == 406:
        return "BAD_USER_AGENT"
    if 400 <= status < 500:
        return "HTTP_REQUEST_ERROR"
    return "NETWORK_ERROR"


class Client:
    """The client under test: the SDK calls of the contract's flows. Replace these with your client's."""

    def __init__(self, environment, folder):
        self.backend = environment["MPIN_BACKEND"].rstrip("/")
        self.client_id = environment.get("MPIN_CLIENT_ID")
        self.storage_path = os.path.join(folder, "python-client.json")
        self.settings = {}
        self.logout_data = None

    # -- plumbing --

    def send(self, method, url, request, body=None, json_answer=True):
        headers = {}
        if self.client_id:
            headers["X-MIRACL-CID"] = self.client_id
        data = None
        if method != "GET":
            data = json.dumps(body if body is not None else {}).encode()
            headers["Content-Type"] = "application/json; charset=UTF-8"
        try:
            answer = OPENER.open(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=30)
            status, payload = answer.status, answer.read(MAX_BODY + 1)
            declared = answer.headers.get("Content-Length")
            if declared is not None and declared.isdigit() and int(declared) > len(payload) and len(payload) <= MAX_BODY:
                raise Failure("NETWORK_ERROR", f"{method} {url}: the answer ended after {len(payload)} of {declared} bytes")
        except urllib.error.HTTPError as error:
            status, payload = error.code, b""
        except Failure:
            raise
        except Exception as error:  # no answer: refused, reset, cut short, timed out, too large
            raise Failure("NETWORK_ERROR", f"{method} {url}: {error}")
        if len(payload) > MAX_BODY:
            raise Failure("NETWORK_ERROR", f"{method} {url}: the answer is larger than {MAX_BODY} bytes")
        if status != 200:
            raise Failure(mapped(status, request), f"{method} {url} answered {status}")
        if not json_answer:
            return payload
        try:
            value = json.loads(payload)
        except ValueError:
            raise Failure("RESPONSE_PARSE_ERROR", f"{method} {url}: the answer is not JSON")
        if not isinstance(value, dict):
            raise Failure("RESPONSE_PARSE_ERROR", f"{method} {url}: the answer is not a JSON object")
        return value

    def setting(self, name):
        value = self.settings.get(name)
        if not isinstance(value, str) or not value:
            raise Failure("RESPONSE_PARSE_ERROR", f"the client settings have no {name}")
        return value

    @staticmethod
    def member(answer, name, kind=str):
        value = answer.get(name)
        if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
            raise Failure("RESPONSE_PARSE_ERROR", f"the answer has no {kind.__name__} {name}")
        return value

    def load(self):
        try:
            with open(self.storage_path) as handle:
                return json.load(handle)
        except (OSError, ValueError):
            return {}

    def save(self, users):
        with open(self.storage_path + ".new", "w") as handle:
            json.dump(users, handle)
        os.replace(self.storage_path + ".new", self.storage_path)

    # -- the calls --

    def set_backend(self):
        """SetBackend: the client settings, relative URLs made absolute, ws(s) made http(s) (§1, §2)."""
        answer = self.send("GET", self.backend + "/rps/clientSettings", "settings")
        for key, value in answer.items():
            if isinstance(value, str):
                value = self.backend + value if value.startswith("/") else value
                value = value.replace("wss://", "https://").replace("ws://", "http://")
            self.settings[key] = value

    def access_code(self, authorize_url):
        """GetAccessCode: what follows the last # of the authorize URL's qrURL (§3.8)."""
        qr = self.member(self.send("POST", authorize_url, "accessCode", {}), "qrURL")
        if "#" not in qr or qr.endswith("#"):
            raise Failure("RESPONSE_PARSE_ERROR", "the qrURL has no access code")
        return qr.rsplit("#", 1)[1]

    def start_registration(self, user, activation_code, wid):
        body = {"userId": user, "mobile": 1}
        if activation_code:
            body["activateCode"] = activation_code
        if wid:
            body["wid"] = wid
        answer = self.send("PUT", self.setting("registerURL"), "register", body)
        self.registration = (self.member(answer, "mpinId"), self.member(answer, "regOTT"))

    def confirm_registration(self):
        mpin_id, reg_ott = self.registration
        url = f"{self.setting('signatureURL')}/{mpin_id}?regOTT={urllib.request.quote(reg_ott, safe='')}"
        answer = self.send("GET", url, "signature")
        share1 = decode(self.member(answer, "clientSecretShare"), "client-secret share 1")
        params = self.member(answer, "params")
        second = self.send("GET", self.setting("certivoxURL") + "clientSecret?" + params, "dtaSecret")
        share2 = decode(self.member(second, "clientSecret"), "client-secret share 2")
        self.shares = (share1, share2)

    def finish_registration(self, user, pin):
        mpin_id, _ = self.registration
        secret = add(*self.shares)
        token = add(secret, negate(multiply(hash_id(bytes.fromhex(mpin_id)), pin_number(pin))))
        users = self.load()
        users[user] = {"mpinId": mpin_id, "token": encode(token)}
        self.save(users)

    def start_authentication(self, user, access_code=""):
        record = self.load().get(user)
        if not record:
            raise Failure("FLOW_ERROR", f"no user {user} in storage")
        self.user = record
        if access_code and self.settings.get("codeStatusURL"):
            try:
                self.send("POST", self.settings["codeStatusURL"], "codeStatus",
                          {"status": "user", "wid": access_code, "userId": user}, json_answer=False)
            except Failure:
                pass  # its answer is ignored (docs/protocol.md §3.4)
        self.permit = None
        if self.settings.get("usePermits", True) is False:
            self.date = 0
            return
        mpin_id = record["mpinId"]
        first = self.send("GET", f"{self.setting('timePermitsURL')}/{mpin_id}", "permit1")
        share1 = decode(self.member(first, "timePermit"), "time-permit share 1")
        self.date = self.member(first, "date", int)
        storage_id, signature = first.get("storageId", ""), first.get("signature", "")
        share2 = None
        if self.settings.get("timePermitsStorageURL") and storage_id:
            url = f"{self.settings['timePermitsStorageURL']}/{self.settings.get('appID', '')}/{self.date}/{storage_id}"
            try:
                share2 = decode(self.send("GET", url, "permit2", json_answer=False).decode().strip(), "stored share 2")
            except Failure:
                share2 = None
        if share2 is None:
            query = urllib.parse.urlencode({"hash_mpin_id": storage_id, "app_id": self.settings.get("appID", ""),
                                            "mobile": "1", "signature": signature})
            second = self.send("GET", self.setting("certivoxURL") + "timePermit?" + query, "permit2")
            share2 = decode(self.member(second, "timePermit"), "time-permit share 2")
        self.permit = add(share1, share2)

    def finish_authentication(self, pin, wid="", otp=False, authz=False, mobile=False):
        """Passes 1 and 2 and the login (docs/protocol.md §3.6, §6.4)."""
        mpin_id = bytes.fromhex(self.user["mpinId"])
        token = decode(self.user["token"], "the stored token")
        a = hash_id(mpin_id)
        sec = add(token, multiply(a, pin_number(pin)))
        x = secrets.randbelow(R - 1) + 1
        u = multiply(a, x)
        ut = ""
        if self.date:
            sec = add(sec, self.permit)
            ut = encode(multiply(add(a, hash_time_id(self.date, mpin_id)), x))
        base = self.setting("mpinAuthServerURL")
        first = self.send("POST", base + "/pass1", "pass1", {"pass": 1, "mpin_id": self.user["mpinId"], "UT": ut,
                                                                "U": encode(u)})
        y_text = self.member(first, "y")
        try:
            y = int(y_text, 16)
        except ValueError:
            raise Failure("RESPONSE_PARSE_ERROR", "y is not hex")
        if len(y_text) != 64 or not 0 < y < R:
            raise Failure("CRYPTO_ERROR", "y is not a scalar of the group (0 < y < r)")
        v = negate(multiply(sec, (x + y) % R))
        second = self.send("POST", base + "/pass2", "pass2", {"pass": 2, "OTP": otp, "WID": wid or "0",
                                                                 "V": encode(v), "mpin_id": self.user["mpinId"]})
        auth_ott = self.member(second, "authOTT")
        url = self.setting("mobileAuthenticateURL" if mobile else "authenticateURL")
        body = ({"mpinResponse": {"authOTT": auth_ott}, "authzRequest": authz} if self.client_id
                else {"mpinResponse": second})
        answer = self.send("POST", url, "login", body, json_answer=False)
        try:
            parsed = json.loads(answer) if answer else {}
        except ValueError:
            parsed = {}
        if mobile and isinstance(parsed, dict) and parsed.get("logoutData") is not None:
            self.logout_data = (parsed["logoutData"], parsed.get("logoutURL", ""))
        if authz and not (isinstance(parsed, dict) and isinstance(parsed.get("code"), str)):
            raise Failure("RESPONSE_PARSE_ERROR", "the answer has no authorization code")

    def logout(self):
        if not self.logout_data or not self.logout_data[1]:
            raise Failure("FLOW_ERROR", "no logout data")
        data, url = self.logout_data
        body = data if not isinstance(data, str) else json.loads(data) if data.startswith("{") else data
        self.send("POST", self.backend + url, "logout", body, json_answer=False)

    def block_if(self, failure):
        """A 410 on the login blocks the user: its token is deleted (docs/protocol.md §4)."""
        if failure.status == "INCORRECT_PIN" and "answered 410" in failure.message:
            users = self.load()
            users.pop(self.user_id, None)
            self.save(users)


def report(call, status, message=""):
    line = {"call": call, "status": status}
    if message:
        line["message"] = message
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def step(name, action, *arguments):
    """Runs one call and reports it; False when it did not return OK."""
    try:
        action(*arguments)
    except Failure as failure:
        report(name, failure.status, failure.message)
        return False
    report(name, "OK")
    return True


def main():
    environment = os.environ
    flow = environment.get("MPIN_FLOW", "")
    flows = {"register", "login", "register-login", "wrong-pin", "otp", "access-number", "logout", "platform-login"}
    if flow not in flows:
        sys.stderr.write(f"no such flow: {flow!r}\n")
        return 3
    if environment.get("MPIN_CURVE", "BN254CX") != "BN254CX":
        return 3  # this client knows BN254CX only
    user, pin = environment["MPIN_USER"], environment["MPIN_PIN"]
    client = Client(environment, os.getcwd())
    client.user_id = user
    if not step("setBackend", client.set_backend):
        return 0
    if flow in ("register", "register-login"):
        wid = ""
        authorize = environment.get("MPIN_AUTHORIZE_URL")
        if authorize:
            holder = {}
            if not step("getAccessCode", lambda: holder.update(code=client.access_code(authorize))):
                return 0
            wid = holder["code"]
        if not (step("startRegistration", client.start_registration, user, environment.get("MPIN_ACTIVATION_CODE"), wid)
                and step("confirmRegistration", client.confirm_registration)
                and step("finishRegistration", client.finish_registration, user, pin)):
            return 0
        if flow == "register":
            return 0
    access_code = ""
    if flow == "platform-login":
        authorize = environment.get("MPIN_AUTHORIZE_URL")
        if not authorize:
            return 3
        holder = {}
        if not step("getAccessCode", lambda: holder.update(code=client.access_code(authorize))):
            return 0
        access_code = holder["code"]
    if not step("startAuthentication", client.start_authentication, user, access_code):
        return 0
    number = environment.get("MPIN_ACCESS_NUMBER", "")
    name, options = {
        "otp": ("finishAuthenticationOTP", {"otp": True}),
        "access-number": ("finishAuthenticationAN", {"wid": number, "mobile": True}),
        "logout": ("finishAuthenticationAN", {"wid": number, "mobile": True}),
        "platform-login": ("finishAuthenticationAuthz", {"wid": access_code, "authz": True}),
    }.get(flow, ("finishAuthentication", {}))
    try:
        client.finish_authentication(pin, **options)
    except Failure as failure:
        client.block_if(failure)
        report(name, failure.status, failure.message)
        return 0
    report(name, "OK")
    if flow == "logout":
        step("logout", client.logout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
