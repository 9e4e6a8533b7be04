"""Compiles the kernels of sum.py to cubins for the C++ launcher (called through pybind11).

Run directly to check that every kernel compiles for a compute capability:
    python3 kernels/triton/compile.py [--cc 90]
"""
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _kernels():
    spec = importlib.util.spec_from_file_location("rb_triton_sum", os.path.join(_HERE, "sum.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # Triton reads the kernels' source from this real file
    return module


def _signature(module, name, types):
    """SIGNATURES[name] with its open element types filled in: `types` over sum.py's TYPES."""
    unknown = sorted(set(types) - set(module.TYPES))
    if unknown:
        raise ValueError(f"{name}: no element type slot named {unknown}; sum.py's are {sorted(module.TYPES)}")
    chosen = {**module.TYPES, **types}
    return {arg: ty.format(**chosen) for arg, ty in module.SIGNATURES[name].items()}


def compile_kernel(name, constexprs, num_warps, aligned, cc, types=None):
    """Returns {cubin, name, shared, num_warps, global_scratch, profile_scratch} for one kernel.

    `types` maps sum.py's TYPES slots ("x", "acc", "out") to Triton's type names; those it leaves
    out keep TYPES' float32.
    """
    import triton
    from triton.backends.compiler import GPUTarget

    module = _kernels()
    fn = getattr(module, name)
    signature = _signature(module, name, dict(types or {}))
    names = list(signature)
    attrs = {}
    if aligned:
        for arg in module.ALIGNABLE[name]:
            attrs[(names.index(arg),)] = [["tt.divisibility", 16]]
    src = triton.compiler.ASTSource(fn=fn, signature=dict(signature), constexprs=dict(constexprs), attrs=attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", int(cc), 32), options={"num_warps": int(num_warps)})
    md = compiled.metadata
    return {
        "cubin": compiled.asm["cubin"],
        "name": compiled.name,
        "shared": int(getattr(md, "shared", 0)),
        "num_warps": int(getattr(md, "num_warps", num_warps)),
        "global_scratch": int(getattr(md, "global_scratch_size", 0) or 0),
        "profile_scratch": int(getattr(md, "profile_scratch_size", 0) or 0),
    }


def triton_version():
    import triton

    return triton.__version__


# The element types launch.cpp compiles onepass_kernel for besides float32 (reduce_bench --dtype):
# f64, f16 and bf16 widened to fp32, i32 widened to i64, and f16 and bf16 added in their own type.
ONEPASS_TYPES = [
    {"x": "fp64", "acc": "fp64", "out": "fp64"},
    {"x": "fp16", "acc": "fp32", "out": "fp32"},
    {"x": "bf16", "acc": "fp32", "out": "fp32"},
    {"x": "i32", "acc": "i64", "out": "i64"},
    {"x": "fp16", "acc": "fp16", "out": "fp32"},
    {"x": "bf16", "acc": "bf16", "out": "fp32"},
]

if __name__ == "__main__":
    cc = int(sys.argv[sys.argv.index("--cc") + 1]) if "--cc" in sys.argv else 90
    onepass = {"BLOCK": 8192, "MAX_PROGS": 2048}
    for kernel, consts, types in [
        ("partials_kernel", {"BLOCK": 4096}, {}),
        ("finish_kernel", {"BLOCK": 1024}, {}),
        ("onepass_kernel", onepass, {}),
        *(("onepass_kernel", onepass, t) for t in ONEPASS_TYPES),
        *((k, {"BLOCK_R": r, "BLOCK_N": 4096 // r}, {"x": x}) for k in ("rows_kernel", "cols_kernel")
          for r in (1, 4096) for x in ("fp32", "bf16")),
    ]:
        for aligned in (True, False):
            r = compile_kernel(kernel, consts, 8, aligned and bool(_kernels().ALIGNABLE[kernel]), cc, types)
            print(f"{kernel} {types or 'fp32'} aligned={aligned}: {r['name']} cubin {len(r['cubin'])} B, "
                  f"shared {r['shared']} B, scratch {r['global_scratch']}/{r['profile_scratch']}")
