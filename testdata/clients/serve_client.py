# usage: python3 serve_client.py SOCKET COMMAND  (asks `hermes-hooks serve` about one terminal command)
import http.client
import json
import socket
import sys


class UnixHTTPConnection(http.client.HTTPConnection):
    """http.client over the Unix socket `hermes-hooks serve --listen unix://...` listens on."""

    def __init__(self, socket_path, timeout=330):  # above serve's --request-timeout
        super().__init__("localhost", timeout=timeout)
        self.socket_path = socket_path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


def dispatch(socket_path, event, fields):
    """Fire a hook event through the server and return the outcome (see "The outcome JSON")."""
    conn = UnixHTTPConnection(socket_path)
    try:
        conn.request("POST", f"/v1/dispatch/{event}", json.dumps(fields),
                     {"Content-Type": "application/json"})
        resp = conn.getresponse()
        body = json.loads(resp.read())
    finally:
        conn.close()
    if resp.status != 200:  # no outcome: the dispatch did not complete; never read it as "allowed"
        raise RuntimeError(f"hermes-hooks serve: HTTP {resp.status}: {body['error']}")
    return body


outcome = dispatch(sys.argv[1], "pre_tool_call", {"tool_name": "terminal", "session_id": "s1",
                                                  "args": {"command": sys.argv[2]}})
print(f"blocked: {outcome['message']}" if outcome["decision"] == "block" else "allowed")
