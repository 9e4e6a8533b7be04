"""An interpreter for the scripts that need numpy, scipy or matplotlib (compare, plot.py).

The python3 first on PATH is often one without Debian's packages (a pyenv build, as on CI, or a
venv), while `apt install python3-numpy python3-scipy python3-matplotlib` puts them under
/usr/bin/python3. require() keeps the running interpreter when it imports the modules, else runs
the script again under /usr/bin/python3 when that one imports them, else says what to install.
Standard library only: it runs before anything else is known to import.
"""
import importlib
import os
import subprocess
import sys

FALLBACK = "/usr/bin/python3"
DEBIAN_PACKAGES = {"numpy": "python3-numpy", "scipy": "python3-scipy", "matplotlib": "python3-matplotlib"}
# Set in the environment of the process started under FALLBACK, so that it never starts another.
_STARTED_BY = "RB_PYTHON_FALLBACK_FROM"

_PROBE = ("import importlib, sys\n"
          "for m in sys.argv[1:]:\n"
          "    try:\n"
          "        importlib.import_module(m)\n"
          "    except Exception:\n"
          "        print(m)\n")


def lacking_here(modules):
    """The modules this interpreter cannot import."""
    out = []
    for m in modules:
        try:
            importlib.import_module(m)
        except Exception:  # a broken install raises more than ImportError
            out.append(m)
    return out


def lacking_in(python, modules):
    """The modules `python` cannot import; all of them when it does not run."""
    try:
        p = subprocess.run([python, "-c", _PROBE, *modules], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return list(modules)
    return p.stdout.split() if p.returncode == 0 else list(modules)


def require(modules, prog, argv=None):
    """None when this interpreter imports every module; otherwise re-executes the script with argv
    (default sys.argv[1:]) under FALLBACK when that one does (and does not return), else returns
    the message to print."""
    started_by = os.environ.pop(_STARTED_BY, None)
    missing = lacking_here(modules)
    if not missing:
        return None
    tried = [sys.executable or "python3"]
    if started_by:
        tried = [started_by, FALLBACK]  # FALLBACK was probed before, yet cannot import them now
    elif os.access(FALLBACK, os.X_OK):
        tried.append(FALLBACK)
        missing_there = lacking_in(FALLBACK, modules)
        if not missing_there:
            sys.stdout.flush()
            sys.stderr.flush()
            env = dict(os.environ, **{_STARTED_BY: tried[0]})
            args = sys.argv[1:] if argv is None else list(argv)
            os.execve(FALLBACK, [FALLBACK, os.path.abspath(sys.argv[0]), *args], env)
        missing = missing_there  # what apt would have to add to FALLBACK
    packages = " ".join(DEBIAN_PACKAGES.get(m, m) for m in missing)
    tried = list(dict.fromkeys(tried))
    who = "{} cannot".format(tried[0]) if len(tried) == 1 else "neither {} nor {} can".format(*tried)
    return "{}: needs {}, which {} import: apt install {} (Debian, Ubuntu)".format(
        prog, " and ".join(modules), who, packages)
