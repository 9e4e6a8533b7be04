"""Triton sum-reduction kernels for reduce-bench.

Compiled at start-up by the C++ side (kernels/triton/compile.py through the embedded interpreter)
and launched from C++ with the CUDA runtime's library API: no Python runs in the timed region.

  two_pass   the classic two-launch design: one program per BLOCK-sized tile writes a partial sum, then
             a second launch (one program) reduces the partials.
  rows_kernel, cols_kernel   the sums along one dimension of a B x N row-major array (reduce_bench
             --shapes), written as Triton's tutorials write a row reduction: one program per BLOCK_R
             rows, looping over N in BLOCK_N steps into a [BLOCK_R, BLOCK_N] float accumulator
             (rows), or one program per BLOCK_N columns looping over the B rows (cols); one float
             output per row or column, no split of a long axis between programs.
  onepass    a persistent grid (programs = SMs x PROGS_PER_SM, sized to the work at small n):
             each program strides over full tiles with unmasked loads (one masked tail tile),
             reduces its vector accumulator, stores a partial, and takes a ticket from an integer
             counter; the program that draws the last ticket reduces all partials in a fixed order
             and resets the counter. One launch, no float atomics, bitwise reproducible.

onepass over other element types (reduce_bench --dtype): the signature's {x}, {acc} and {out}
(TYPES) are filled in by the launcher (launch.cpp), one compiled kernel per choice. The accumulator
has the partials' type: each loaded value is converted to it exactly (f16, bf16 -> fp32; i32 ->
i64; f64 stays fp64), or, when {acc} is the input's own 16-bit type, not converted at all. That
variant is what `acc = tl.zeros([BLOCK], dtype=tl.bfloat16); acc += tl.load(x_ptr + offs)` gives:
Triton adds two bf16 (or two fp16) tensors in that type, and tl.sum adds in its input's type (in
the Triton this runs with; docs/backends.md says since when), so every addition on an element's
path rounds to 8 (bf16) or 11 (fp16) significant bits.
"""
import triton
import triton.language as tl

# Triton's ABI for each kernel: the C++ launcher passes exactly these arguments, in this order
# (constexpr entries are compiled in, not passed), followed by Triton's two trailing scratch
# pointers (global and profile scratch; null when the metadata asks for none).
SIGNATURES = {
    "partials_kernel": {"x_ptr": "*fp32", "partials_ptr": "*fp32", "n": "i64", "BLOCK": "constexpr"},
    "finish_kernel": {"partials_ptr": "*fp32", "out_ptr": "*fp32", "m": "i64", "BLOCK": "constexpr"},
    "onepass_kernel": {
        "x_ptr": "*{x}",
        "partials_ptr": "*{acc}",
        "counter_ptr": "*i32",
        "out_ptr": "*{out}",
        "n": "i64",
        "BLOCK": "constexpr",
        "MAX_PROGS": "constexpr",
    },
    "rows_kernel": {"x_ptr": "*{x}", "out_ptr": "*fp32", "B": "i64", "N": "i64", "BLOCK_R": "constexpr",
                    "BLOCK_N": "constexpr"},
    "cols_kernel": {"x_ptr": "*{x}", "out_ptr": "*fp32", "B": "i64", "N": "i64", "BLOCK_R": "constexpr",
                    "BLOCK_N": "constexpr"},
}

# The element types a signature leaves open, as Triton spells them ("fp32", "fp64", "fp16", "bf16",
# "i32", "i64"): the input, the accumulator (and partials), the result. A launcher that names none
# gets these.
TYPES = {"x": "fp32", "acc": "fp32", "out": "fp32"}

# Arguments that may be declared divisible by 16 (tt.divisibility 16: pointers 16-byte aligned, N a
# multiple of 16) so loads vectorize to 128 bits, as Triton's JIT specializes them. Only used when
# the C++ side checked every one of them.
ALIGNABLE = {
    "partials_kernel": ["x_ptr"],
    "onepass_kernel": ["x_ptr"],
    "finish_kernel": [],
    "rows_kernel": ["x_ptr", "out_ptr", "N"],
    "cols_kernel": ["x_ptr", "out_ptr", "N"],
}


@triton.jit
def partials_kernel(x_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(partials_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def finish_kernel(partials_ptr, out_ptr, m, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, m, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partials_ptr + offs, mask=offs < m, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


@triton.jit
def onepass_kernel(x_ptr, partials_ptr, counter_ptr, out_ptr, n, BLOCK: tl.constexpr, MAX_PROGS: tl.constexpr):
    pid = tl.program_id(0)
    progs = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    full_tiles = n // BLOCK
    # The partials' type is the accumulator's (TYPES' {acc}): .to() widens each value exactly, and
    # is no operation at all when the types agree (fp32 throughout, or a 16-bit input added as is).
    acc = tl.zeros([BLOCK], dtype=partials_ptr.dtype.element_ty)
    for tile in range(pid, full_tiles, progs):
        acc += tl.load(x_ptr + (tile.to(tl.int64) * BLOCK + lanes)).to(partials_ptr.dtype.element_ty)
    # The ragged tail (n % BLOCK values) goes to the program the stride would have given it.
    if pid == full_tiles % progs:
        offs = full_tiles * BLOCK + lanes
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(partials_ptr.dtype.element_ty)
    tl.store(partials_ptr + pid, tl.sum(acc, axis=0))
    # Every thread's store happens-before the barrier; the acq_rel ticket (gpu scope) releases
    # them to the program that draws the last ticket, whose barrier after its acquire orders
    # all its threads' partial loads after it (the threadFenceReduction pattern).
    tl.debug_barrier()
    ticket = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")
    if ticket == progs - 1:
        tl.debug_barrier()
        slots = tl.arange(0, MAX_PROGS)
        # .cg: read at L2, never from a possibly stale L1 line.
        p = tl.load(partials_ptr + slots, mask=slots < progs, other=0.0, cache_modifier=".cg")
        # A 16-bit sum is stored into an fp32 {out}: converted exactly.
        tl.store(out_ptr, tl.sum(p, axis=0))
        tl.store(counter_ptr, 0)  # the next launch starts from zero: no memset launch


@triton.jit
def rows_kernel(x_ptr, out_ptr, B, N, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    lanes = tl.arange(0, BLOCK_N)
    row_ptr = x_ptr + rows[:, None] * N
    acc = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + lanes
        mask = (rows[:, None] < B) & (cols[None, :] < N)
        acc += tl.load(row_ptr + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rows < B)


@triton.jit
def cols_kernel(x_ptr, out_ptr, B, N, BLOCK_R: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0).to(tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    lanes = tl.arange(0, BLOCK_R)
    acc = tl.zeros([BLOCK_R, BLOCK_N], dtype=tl.float32)
    for start in range(0, B, BLOCK_R):
        rows = start + lanes
        mask = (rows[:, None] < B) & (cols[None, :] < N)
        acc += tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)
