"""Print Xiong et al.'s Fig. 3 (a), (b) measured on a model of their shape
(attnviz.lessons.depth_paper_shape): each layer's ‖∂ℒ/∂W_2‖, mean over seeds, encoder and
decoder, post-LN and pre-LN, with and without cross-attention, and layer 6 over layer 1 read
by the depth page's rule (depth_gradients.direction).

    PYTHONPATH=. python3 tools/depth_paper_shape.py [seeds]
"""

import sys
import time

import numpy as np

from attnviz.lessons import depth_gradients, depth_paper_shape


def main(seeds: int = 3) -> None:
    start = time.perf_counter()
    for cross in (True, False):
        for norm in ("post", "pre"):
            runs = [depth_paper_shape.layer_gradients(norm, s, cross=cross) for s in range(seeds)]
            for part in runs[0]:
                g = np.mean([r[part] for r in runs], axis=0)
                ratio = g[-1] / g[0]
                print(
                    f"{'cross' if cross else 'no cross'} {norm:4} {part:7}",
                    " ".join(f"{v:6.3f}" for v in g),
                    f"×{ratio:.2f} {depth_gradients.direction(ratio)}",
                )
    print(f"{seeds} seeds, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
