# Optional GPU backends, detected at configure time. Absence never fails the build: the backend is
# then registered as unavailable, with the reason recorded here, and reports as skipped.
#   RB_HAVE_TORCH   libtorch, found through the installed torch package (torch.utils.cmake_prefix_path)
#   RB_HAVE_TRITON  an embeddable Python and pybind11; `import triton` is checked at run time
option(RB_ENABLE_TORCH "Build the torch/sum backend when libtorch is found" ON)
option(RB_ENABLE_TRITON "Build the triton/* backends when Python (embed) and pybind11 are found" ON)
set(RB_HAVE_TORCH OFF)
set(RB_HAVE_TRITON OFF)
set(RB_TORCH_REASON "not built: RB_ENABLE_TORCH is OFF")
set(RB_TRITON_REASON "not built: RB_ENABLE_TRITON is OFF")
if(NOT RB_HAVE_CUDA)
  set(RB_TORCH_REASON "not built: no CUDA compiler")
  set(RB_TRITON_REASON "not built: no CUDA compiler")
  return()
endif()

if(RB_ENABLE_TORCH OR RB_ENABLE_TRITON)
  find_package(Python3 COMPONENTS Interpreter QUIET)
endif()

if(RB_ENABLE_TORCH)
  set(RB_TORCH_REASON "not built: libtorch not found at configure time")
  if(Python3_Interpreter_FOUND)
    # torch's package folder without importing torch (an import loads its CUDA libraries: seconds
    # on every configure); torch.utils.cmake_prefix_path is <package>/share/cmake.
    execute_process(COMMAND ${Python3_EXECUTABLE} -c
                            "import importlib.util as u, os; s = u.find_spec('torch'); print(os.path.join(s.submodule_search_locations[0], 'share', 'cmake'))"
                    OUTPUT_VARIABLE _rb_torch_prefix OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rb_torch_rc ERROR_QUIET)
    if(_rb_torch_rc EQUAL 0)
      list(APPEND CMAKE_PREFIX_PATH "${_rb_torch_prefix}")
      find_package(Torch QUIET)
    else()
      set(RB_TORCH_REASON "not built: ${Python3_EXECUTABLE} has no torch package at configure time")
    endif()
  endif()
  if(TORCH_FOUND)
    if(TORCH_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
      set(RB_TORCH_REASON "not built: libtorch uses the pre-C++11 libstdc++ ABI")
    else()
      set(RB_HAVE_TORCH ON)
      set(RB_TORCH_REASON "")
    endif()
  endif()
endif()

if(RB_ENABLE_TRITON)
  set(RB_TRITON_REASON "not built: no embeddable Python 3 (Development.Embed) at configure time")
  find_package(Python3 COMPONENTS Interpreter Development.Embed QUIET)
  # Judge by the header itself: an interpreter without its development files (the H200 box's
  # system python3.12 behind the torch venv) must disable the backend, not break the build.
  if(TARGET Python3::Python AND EXISTS "${Python3_INCLUDE_DIRS}/Python.h")
    set(RB_TRITON_REASON "not built: pybind11 not found at configure time")
    execute_process(COMMAND ${Python3_EXECUTABLE} -m pybind11 --cmakedir
                    OUTPUT_VARIABLE _rb_pybind11_dir OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rb_pybind11_rc ERROR_QUIET)
    if(_rb_pybind11_rc EQUAL 0)
      list(APPEND CMAKE_PREFIX_PATH "${_rb_pybind11_dir}")
    endif()
    set(PYBIND11_FINDPYTHON ON)  # use the Python3 found above, not pybind11's own search
    find_package(pybind11 CONFIG QUIET)
    if(pybind11_FOUND)
      set(RB_HAVE_TRITON ON)
      set(RB_TRITON_REASON "")
      # The interpreter's sys.path, so the embedded one finds a virtual environment's packages.
      execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(':'.join(p for p in sys.path if p))"
                      OUTPUT_VARIABLE RB_PYTHON_SYS_PATH OUTPUT_STRIP_TRAILING_WHITESPACE)
    endif()
  endif()
endif()
