"""LaTeX for the block pages, beside the chapter's POST_LN and PRE_LN in ``attnviz.latex``."""

from ..latex import POST_LN, PRE_LN

NO_LN = (
    r"\begin{aligned}h &= x + \mathrm{MHA}(x) \\"
    r" \mathrm{out} &= h + \mathrm{FFN}(h)\end{aligned}"
)
BLOCK = {"post": POST_LN, "pre": PRE_LN, "none": NO_LN}
LAYER_NORM = (
    r"\mathrm{LN}(x) = \gamma \odot \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + \beta,"
    r"\qquad \mu = \tfrac{1}{D}\sum_{d} x_d,\ "
    r"\sigma^2 = \tfrac{1}{D}\sum_d (x_d - \mu)^2"
)
GRAD_SCALE = (
    r"\begin{aligned}\text{pre-LN: }\ \Big\|\frac{\partial \mathcal{L}}"
    r"{\partial W_2^{(\ell)}}\Big\| &= O\!\big(1/\sqrt{L}\big) \\"
    r" \text{post-LN: }\ \Big\|\frac{\partial \mathcal{L}}{\partial W_2^{(L)}}"
    r"\Big\| &= O(1)\end{aligned}"
)
RACE = (
    r"\begin{aligned}h_0 &= E[x] + W_{\mathrm{pos}} \\ \hat y &="
    r" \mathrm{softmax}(h_L W_{\mathrm{out}}) \\"
    r" \eta_t &= \eta \min(1, t / T_{\mathrm{warm}})\end{aligned}"
)
SINUSOIDAL = (
    r"\begin{aligned}P_{i,2k} &= \sin\!\big(i / 10000^{2k/D}\big) \\"
    r" P_{i,2k+1} &= \cos\!\big(i / 10000^{2k/D}\big)\end{aligned}"
)
ADD_CONCAT = (
    r"x_i + p_i \in \mathbb{R}^{D} \quad \text{vs} \quad"
    r" [x_i; p_i] \in \mathbb{R}^{D + d_p}"
)
