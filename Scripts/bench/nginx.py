"""nginx on a loopback port for the benchmarks (run.py, scale.py): one implementation."""
import os
import signal
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx serving `root`, its files under `work`. With `logged`, it serves `.gz` files
    (gzip_static) and logs each request's path, status and bytes sent for `requests()`."""

    def __init__(self, root, work, server_config="", logged=False):
        self.folder = tempfile.mkdtemp(prefix="nginx-", dir=work)
        self.port = free_port()
        self.log = os.path.join(self.folder, "access.log")
        for temp in ["body", "proxy", "fastcgi", "uwsgi", "scgi"]:
            os.makedirs(os.path.join(self.folder, "temp", temp))
        logging = f"log_format sent '$request_uri $status $bytes_sent'; access_log {self.log} sent; gzip_static on;" if logged else "access_log off;"
        config = os.path.join(self.folder, "nginx.conf")
        with open(config, "w") as handle:
            handle.write(f"""daemon off; master_process off; worker_processes 1;
pid {self.folder}/nginx.pid; error_log {self.folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{ {logging} sendfile on; etag on; keepalive_requests 100000;
  client_body_temp_path {self.folder}/temp/body; proxy_temp_path {self.folder}/temp/proxy;
  fastcgi_temp_path {self.folder}/temp/fastcgi; uwsgi_temp_path {self.folder}/temp/uwsgi;
  scgi_temp_path {self.folder}/temp/scgi;
  server {{ listen 127.0.0.1:{self.port}; root {root}; {server_config} }} }}
""")
        self.process = subprocess.Popen(["/usr/sbin/nginx", "-p", self.folder, "-e", f"{self.folder}/error.log", "-c", config],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def requests(self):
        """(path, status, bytes sent) of every request since the last call (with `logged`)."""
        time.sleep(0.2)
        with open(self.log) as handle:
            lines = handle.read().splitlines()
        open(self.log, "w").close()
        return [(path, status, int(sent)) for path, status, sent in (line.split(" ") for line in lines)]

    def stop(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
