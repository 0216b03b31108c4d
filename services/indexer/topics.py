"""Derive 1-3 taxonomy topics for a paper from its text, labels and venue.

Why rules and not a model: the tags must be explainable ("this phrase in the title"),
reproducible across re-indexes, cheap enough for every record of an ingest, and free of
any training data we would have to ship. The taxonomy itself lives in
``services.search.taxonomy``; docs/topics.md has the table and the measured figures.

Method
------
1. Every topic has a list of *cues*: lowercase phrases, *strong* (unambiguous for the
   topic, e.g. "semantic segmentation") or *weak* (suggestive, e.g. "image"). A trailing
   ``*`` matches any word continuation ("robot*" = robot, robots, robotic, ...). One
   phrase may be a cue of several topics ("visual question answering").
2. Text is lowercased and every run of non-alphanumerics becomes one space, so matching
   is on whole words and "multi-agent", "multi agent" and "Multi_Agent" are the same.
   All cues are compiled into one trie-shaped regular expression (lazily, once) and
   each field is scanned once; at a position the longest cue wins, so "generative
   adversarial network" is not also read as the robustness cue "adversarial". A few
   ``NEUTRAL`` phrases ("state of the art", "causal attention") are matched only to be
   ignored.
3. Score of a topic = sum over the *distinct* cues found in each field of
   cue weight (strong 3, weak 1) x field weight (title 2, keywords and primary area 2,
   abstract 1). Repeating a phrase in the abstract does not add up, and the abstract
   adds at most ``ABSTRACT_CAP`` to a topic, so a long abstract cannot drown the title.
4. A topic is kept when its score reaches ``THRESHOLD`` (one strong abstract cue or a
   weak title cue plus one more weak cue) and at least ``RELATIVE`` of the best score;
   at most ``MAX_TOPICS``, best first (ties broken by taxonomy order).
5. Venue prior: when the best text score is below ``CONFIDENT`` (no or weak evidence)
   and the venue has a home area (ICRA -> robotics, ACL -> NLP, ...), that area gets
   ``PRIOR_BONUS`` on top of its text score before step 4. With strong text evidence the
   venue is ignored, so a CVPR paper on speech stays speech.
6. Fallback: if nothing is kept, the paper gets ``machine-learning``. The result is
   never empty and only contains slugs of ``TOPICS``.

``explain`` returns the scores and which of text / prior / fallback decided, for the
report (bench/topics_report.py) and for debugging a surprising tag.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from services.search.conferences import canonical_slug
from services.search.taxonomy import FALLBACK, TOPICS

STRONG = 3
WEAK = 1
TITLE_WEIGHT = 2
LABEL_WEIGHT = 2  # keywords and primary area: curated by authors or the venue
ABSTRACT_WEIGHT = 1
ABSTRACT_CAP = 9  # an abstract adds at most three strong cues' worth to a topic
THRESHOLD = 3
CONFIDENT = 6
RELATIVE = 0.4
PRIOR_BONUS = 3
MAX_TOPICS = 3


@dataclass(frozen=True)
class Cues:
    """Semicolon-separated phrases; see the module docstring for the syntax."""

    strong: str
    weak: str = ""


CUES: dict[str, Cues] = {
    "computer-vision": Cues(
        "computer vision; machine vision; image classification; image recognition; "
        "object detection; object detector*; semantic segmentation; instance segmentation; "
        "panoptic segmentation; image segmentation; video segmentation; object segmentation; "
        "salient object*; saliency detection; visual recognition; visual tracking; "
        "object tracking; multi object tracking; pose estimation; human pose; hand pose; "
        "head pose; face recognition; face detection; face alignment; faces; facial; "
        "person re identification; re identification; reid; action recognition; "
        "activity recognition; action detection; action localization; video understanding; "
        "video analysis; optical flow; stereo matching; depth estimation; depth completion; "
        "monocular depth; super resolution; image restoration; image denoising; deblur*; dehaz*; "
        "derain*; low light; image enhancement; image quality; scene understanding; "
        "scene parsing; scene recognition; scene graph*; crowd counting; keypoint*; "
        "feature matching; image matching; visual localization; place recognition; scene text; "
        "text recognition; optical character recognition; ocr; handwrit*; gesture recognition; "
        "sign language; gaze estimation; fine grained; vision transformer*; remote sensing; "
        "hyperspectral; aerial image*; satellite image*; image analysis; image processing; "
        "object recognition; edge detection; human object interaction; video object*; "
        "event camera*; bounding box*; detr; yolo; pedestrian detection; lane detection; "
        "vehicle detection; traffic sign*; image compression; image registration; medical image*; "
        "visual question answering; image captioning; image retrieval; video retrieval; "
        "image generation; image synthesis; image editing; video generation; 3d object detection; "
        "point cloud segmentation; open vocabulary; computational photography; "
        "anomaly segmentation; change detection; image forensic*; face anti spoofing; "
        "visual features; visual representation*",
        "image; images; video; videos; vision; visual; visually; pixel*; camera*; photo; photos; "
        "photograph*; imagenet; scene; scenes; object; objects; rgb; rgbd; segmentation; "
        "recognition; tracking; detection; detector*; appearance; occlu*; illumination; frame; "
        "frames; viewpoint*; patch; patches; face; cnn; cnns; convolutional neural network*; "
        "lidar; vision based; visual odometry",
    ),
    "3d-vision-graphics": Cues(
        "3d reconstruction; 3d shape*; 3d scene*; 3d object*; 3d human*; 3d point*; 3d model*; "
        "3d geometry; 3d vision; 3d generation; 3d aware; 3d face*; 3d pose; 3d mesh*; 3d hand*; "
        "3d body; 3d detection; 3d semantic; 3d representation*; 3d content; 3d object detection; "
        "point cloud*; nerf; nerfs; neural radiance field*; radiance field*; gaussian splatting; "
        "3d gaussian*; 3dgs; splat*; mesh; meshes; meshing; rendering; renderer*; "
        "differentiable rendering; inverse rendering; neural rendering; novel view*; "
        "view synthesis; multi view stereo; multiview stereo; structure from motion; "
        "geometry processing; computer graphics; graphics; animation*; animated; animating; "
        "animate; motion capture; mocap; cloth; garment*; hair; fluid simulation; fluids; "
        "physics based animation; physically based; fabrication; 3d printing; texture synthesis; "
        "shading; shader*; ray tracing; path tracing; global illumination; light transport; brdf; "
        "relighting; subdivision; implicit surface*; implicit neural representation*; "
        "signed distance; sdf; voxel*; surface reconstruction; scene reconstruction; skinning; "
        "rigging; avatar*; digital human*; smpl; cad; 6d pose; 6d object; 6dof pose; 6 dof pose; "
        "photogrammetry; depth map*; stereo; light field*; computational photography; holograph*; "
        "caustic*; vector graphics; font*; typograph*; geometric modeling; shape analysis; "
        "shape correspondence; shape matching; shape completion; character control; "
        "motion retargeting; text to 3d; 3d",
        "shape; shapes; geometry; geometric; surface; surfaces; deformable; deformation*; "
        "reconstruction; registration; texture*; sketch*; polygon*; material; materials; depth; "
        "lighting; render; renders; simulation; physics; virtual reality; augmented reality; vr; "
        "multi view; multiview; camera pose; pose graph; 3d printed; procedural; layout*; display*",
    ),
    "natural-language-processing": Cues(
        "natural language processing; nlp; computational linguistics; natural language; "
        "language model*; language modeling; language modelling; machine translation; "
        "neural machine translation; named entit*; ner; dependency parsing; constituency parsing; "
        "semantic parsing; parser*; parsing; part of speech; pos tagging; sequence labeling; "
        "sequence labelling; question answering; reading comprehension; summarization; "
        "summarisation; text classification; sentiment*; opinion mining; aspect based; "
        "aspect level; aspect term*; emotion detection; emotion cause; dialogue*; dialog; "
        "dialogs; conversational; conversation*; chatbot*; information extraction; "
        "relation extraction; relation classification; event extraction; entity linking; "
        "entity recognition; coreference; word embedding*; word vector*; word2vec; bert; roberta; "
        "xlnet; t5; bart; seq2seq; sequence to sequence; corpus; corpora; lexical*; lexicon*; "
        "morpholog*; syntax; syntactic*; semantic role*; discourse; text generation; "
        "natural language generation; natural language understanding; nlu; nli; "
        "natural language inference; textual entailment; entailment; paraphras*; "
        "stance detection; fake news; hate speech; rumor*; rumour*; sarcasm; linguistic*; "
        "linguistics; multilingual; cross lingual; crosslingual; bilingual; tokeniz*; treebank*; "
        "grammar*; grammatical; keyphrase*; language understanding; language generation; "
        "pretrained language model*; pre trained language model*; semantic similarity; "
        "text mining; tweet*; utterance*; spelling; essay*; word sense; word segmentation; "
        "abstractive; extractive; slot filling; intent detection; intent classification; "
        "knowledge grounded; response generation; commonsense reasoning; question generation; "
        "fact check*; fact verification; argument mining; readability; text simplification; "
        "typolog*; dialect*; speech act*; pragmatic*; causal language model*; "
        "masked language model*; low resource language*; text to sql; text style; "
        "story generation; storytelling",
        "text; texts; textual; sentence*; word; words; language; languages; document*; questions; "
        "answer; answers; news; english; chinese; vocabular*; translation*; story*; narrative*; "
        "lingual; low resource; stance; annotat*; token*; writing; written; code generation; "
        "semantic*",
    ),
    "large-language-models": Cues(
        "large language model*; llm; llms; large multimodal model*; gpt*; chatgpt; "
        "instruction tuning; instruction tuned; instruction following; in context learning; "
        "chain of thought; cot; prompting; prompt engineering; rlhf; "
        "reinforcement learning from human feedback; preference optimization; "
        "direct preference optimization; dpo; jailbreak*; hallucinat*; llama*; vicuna; mistral; "
        "qwen; gemini; claude; retrieval augmented generation; retrieval augmented; rag; "
        "tool use; tool learning; language agent*; llm agent*; agentic; reasoning model*; "
        "test time compute; test time scaling; parameter efficient fine tuning; peft; lora; "
        "red teaming; emergent abilit*; multimodal large language model*; multimodal llm*; mllm*; "
        "lvlm*; large vision language model*; vision language model*; vlm; vlms; "
        "large scale language model*",
        "language model*; alignment; pretrained language model*; reward model*; "
        "pre trained language model*; fine tuning; finetuning; fine tuned; reasoning; zero shot; "
        "few shot; human feedback; code generation; prompt*; in context; foundation model*; "
        "generative ai; large models; mathematical reasoning",
    ),
    "speech-audio": Cues(
        "speech; speech recognition; automatic speech recognition; asr; text to speech; tts; "
        "speech synthesis; speech enhancement; speech separation; speech translation; spoken; "
        "speaker*; audio*; acoustic*; music*; musical; song*; singing; singer*; voice*; phoneme*; "
        "phonetic*; prosod*; vocoder*; waveform*; sound event*; sound source*; sounds; "
        "sound field; audio visual; audiovisual; spectrogram*; pitch estimation; melod*; timbre; "
        "keyword spotting; wav2vec; whisper; microphone*; noise suppression; dereverberation; "
        "speech emotion; talking head*; lip reading",
        "utterance*; pronunciation; listening; listener*; sound; auditory; hearing",
    ),
    "multimodal-learning": Cues(
        "multimodal*; multi modal*; cross modal*; crossmodal; intermodal; vision language; "
        "vision and language; visual language; language vision; visual question answering; vqa; "
        "image captioning; video captioning; captioning; caption*; visual grounding; "
        "language grounding; phrase grounding; referring expression*; referring segmentation; "
        "text to image; text to video; text to 3d; text to motion; text driven; image text; "
        "text image; video text; text video; video language; vision language model*; vlm; vlms; "
        "mllm*; lvlm*; multimodal large language model*; large multimodal model*; clip model*; "
        "visual dialog; audio visual; audiovisual; visual speech; lip reading; talking face*; "
        "talking head*; visual reasoning; visual instruction; image text retrieval; "
        "text image retrieval; text video retrieval; video text retrieval; multimodal fusion; "
        "visual commonsense; embodied question answering; visuo tactile; visual tactile; "
        "vision and touch; language guided; language driven; language conditioned; "
        "natural language instruction*; vision language navigation; visual entailment; "
        "visual storytelling; meme*; image text matching; visual semantic embedding*; "
        "video question answering; videoqa; text guided; text prompt*",
        "fusion; fuse; fused; fusing; modality; modalities; clip; grounding; grounded; referring; "
        "sensor fusion; open vocabulary; heterogeneous",
    ),
    "generative-models": Cues(
        "generative model*; generative; generative adversarial; gan; gans; "
        "adversarial generative; cyclegan; stylegan*; biggan; variational autoencoder*; "
        "variational auto encoder*; vae; vaes; diffusion model*; denoising diffusion; "
        "diffusion based; diffusion prior*; diffusion policy; diffusion policies; "
        "video diffusion; score based; score matching; normalizing flow*; normalising flow*; "
        "flow matching; rectified flow; autoregressive model*; autoregressive generation; "
        "image generation; image synthesis; video generation; video synthesis; text to image; "
        "text to video; text to 3d; 3d generation; image editing; video editing; style transfer; "
        "image to image; image translation; inpainting; outpainting; energy based model*; "
        "deep generative; stable diffusion; latent diffusion; generative ai; talking head*; "
        "face swap*; motion generation; motion synthesis; content creation; content generation; "
        "controllable generation; colorization; texture synthesis; consistency model*; "
        "boltzmann machine*; restricted boltzmann; image generator*; shape generation; "
        "scene generation; layout generation; human motion generation; dance generation; "
        "story generation",
        "diffusion; autoregressive; generate; generates; generated; generating; generation; "
        "generator*; synthesis; synthesize*; synthesizing; synthesized; sampling; samples; "
        "realistic; photorealistic; latent space; editing; likelihood; autoencoder*; synthetic; "
        "fid; denoiser*; decoder*; creative; controllable; deepfake*; text to speech; "
        "speech synthesis; novel view synthesis; view synthesis; density model*",
    ),
    "reinforcement-learning": Cues(
        "reinforcement learning; deep reinforcement learning; rl; drl; marl; markov decision*; "
        "mdp; mdps; pomdp*; partially observable; q learning; q network*; dqn; policy gradient*; "
        "actor critic; off policy; on policy; offline rl; offline reinforcement learning; "
        "policy optimization; policy iteration; value iteration; temporal difference; "
        "td learning; value function*; q function*; bellman; reward shaping; reward function*; "
        "imitation learning; inverse reinforcement learning; inverse rl; behavior cloning; "
        "behavioral cloning; behaviour cloning; learning from demonstration*; model based rl; "
        "model free; bandit; bandits; multi armed bandit*; contextual bandit*; thompson sampling; "
        "upper confidence bound; ucb; sequential decision*; exploration exploitation; "
        "intrinsic motivation; intrinsic reward*; curiosity driven; policy learning; best arm; "
        "pure exploration; regret minimization; options framework; hierarchical rl; "
        "goal conditioned; world model*; atari; mujoco; learned policy; learned policies; "
        "visuomotor policy; visuomotor policies; preference based rl; off policy evaluation; "
        "self play; diffusion policy; diffusion policies; policy search; reward machine*; "
        "safe reinforcement learning; safe rl; safe exploration",
        "reward*; policy; policies; agent; agents; exploration; explore; environment*; "
        "trial and error; regret; returns; episodic; episode*; decision making; demonstration*; "
        "skill*; horizon; games",
    ),
    "robotics": Cues(
        "robot*; robotic*; manipulator*; grasping; grasps; grasp planning; grasp detection; "
        "grasp pose*; grasp synthesis; locomotion; legged; quadruped*; biped*; humanoid*; "
        "exoskeleton*; prosthe*; uav; uavs; drone; drones; quadrotor*; quadcopter*; multirotor*; "
        "aerial vehicle*; aerial robot*; micro aerial; unmanned; slam; "
        "simultaneous localization and mapping; odometry; visual inertial; inertial; "
        "motion planning; path planning; trajectory planning; trajectory optimization; "
        "trajectory tracking; autonomous vehicle*; autonomous driving; self driving; driving; "
        "mobile robot*; end effector*; actuator*; actuation; actuated; servo*; gripper*; finger; "
        "fingers; fingertip*; dexterous; dexterity; in hand; teleoperat*; telepresence; haptic*; "
        "kinematic*; kinematically; inverse kinematics; inverse dynamics; torque*; dof; "
        "soft robot*; tendon*; surgical; surgery; minimally invasive; catheter*; endoscop*; "
        "underwater; auv; auvs; rov; swarm*; multi robot; gait*; wheel*; wheeled; "
        "model predictive control; mpc; pid; impedance control; admittance; force control; "
        "compliant; motion control; feedback control; sim to real; sim2real; lidar; imu; tactile; "
        "force sensing; force sensor*; force torque; hand eye; pick and place; bin picking; "
        "microrobot*; micro robot*; nanorobot*; magnetic actuation; cable driven; "
        "parallel mechanism*; human robot; hri; collision avoidance; obstacle avoidance; "
        "collision free; navigation; path following; formation control; spacecraft; manipulation; "
        "mobile manipulation; nonprehensile; occupancy grid*; joint space; hydraulic; pneumatic; "
        "visual servoing; visual odometry; autonomous navigation; autonomous systems; "
        "exploration of unknown; state estimation; sensor fusion; rehabilitation; "
        "assistive device*; wearable robot*; vehicle dynamics; path planner*; motion planner*; "
        "multi vehicle; traffic scenario*; vehicle trajectory",
        "control; controller*; motion; dynamics; trajectory; trajectories; obstacle*; "
        "localization; mapping; planner*; autonomous; autonomy; sensor*; vehicle; vehicles; car; "
        "cars; traffic; pedestrian*; arm; hand; hands; contact*; walking; flight; flying; "
        "aircraft; terrain*; mechanism*; motor*; calibration; simulation; simulator*; embodied; "
        "pose; poses; degrees of freedom; assembly; pushing; jumping; climbing; vibration*; "
        "grasp; sensing",
    ),
    "learning-theory": Cues(
        "learning theory; statistical learning theory; computational learning theory; pac; "
        "pac learning; pac learnable; pac bayes*; pac bayesian; sample complexity; "
        "generalization bound*; generalization error*; risk bound*; excess risk; vc dimension; "
        "rademacher; minimax; minimax rate*; minimax optimal; regret bound*; regret; "
        "lower bound*; upper bound*; online learning; mistake bound*; learnability; "
        "query complexity; statistical query; agnostic learning; agnostically; realizable; "
        "neural tangent kernel*; ntk; implicit bias; implicit regularization; overparameteriz*; "
        "over parameteriz*; double descent; benign overfitting; sparse recovery; "
        "compressed sensing; high dimensional statistic*; hypothesis testing; property testing; "
        "statistical rate*; estimation error; mean estimation; robust statistics; "
        "robust estimation; non asymptotic; provably; provable; theoretical guarantee*; "
        "theoretical analysis; reproducing kernel; rkhs; halfspace*; sparse linear regression; "
        "teaching dimension; covering number*; uniform convergence; concentration inequalit*; "
        "stability bound*; algorithmic stability; littlestone; expert advice; "
        "prediction with expert*; minimax regret; sublinear regret; logarithmic regret; "
        "adversarial bandit*; information theoretic lower; statistical learning; "
        "convergence guarantee*; optimal rate*; learning parities; boolean function*; "
        "dimension free",
        "theoretical; theory; theoretically; guarantee*; bound; bounds; tight; asymptotic*; "
        "polynomial; polynomial time; estimator*; sample size; learner*; hypothesis; adversary; "
        "function class*; theorem*; proof*; prove; learnable; nearly optimal; near optimal; "
        "identifiability; information theoretic; consistency; perceptron*; boosting; bandit; "
        "bandits",
    ),
    "optimization": Cues(
        "convex optimization; convex; nonconvex; non convex; concave; "
        "stochastic gradient descent; stochastic gradient*; sgd; gradient descent; "
        "gradient method*; stochastic optimization; first order method*; second order method*; "
        "first order optimization; newton s method; quasi newton; proximal*; admm; frank wolfe; "
        "mirror descent; coordinate descent; variance reduction; variance reduced; "
        "convergence rate*; linear convergence; saddle point*; minimax optimization; "
        "min max optimization; bilevel; bi level; combinatorial optimization; "
        "integer programming; integer linear; mixed integer; linear programming; linear program*; "
        "quadratic program*; semidefinite; sdp; submodular*; black box optimization; "
        "bayesian optimization; zeroth order; derivative free; evolutionary algorithm*; "
        "evolutionary computation; evolutionary; genetic algorithm*; genetic programming; "
        "evolution strateg*; particle swarm; metaheuristic*; simulated annealing; learning rate*; "
        "adam; adaptive gradient*; line search; trust region; distributed optimization; "
        "decentralized optimization; multi objective; multiobjective; constrained optimization; "
        "duality; primal dual; gradient free; accelerated gradient; operator splitting; "
        "vehicle routing; traveling salesman; travelling salesman; tsp; facility location; "
        "knapsack; max cut; maxcut; sparse optimization; lasso; optimal transport; "
        "global optimization; local search; variational inequalit*; monotone operator*; "
        "hyperparameter optimization; distributionally robust; robust optimization; "
        "optimization algorithm*; optimization method*; optimization problem*; "
        "convergence analysis; polyak; nesterov; quadratic; lagrangian",
        "optimization; optimisation; optimizer*; optimiser*; optimize; optimizing; gradient*; "
        "convergence; converge; converges; minimize; minimization; minimizing; maximization; "
        "pareto; momentum",
    ),
    "probabilistic-methods": Cues(
        "bayesian*; bayes; variational inference; variational bayes; mcmc; "
        "markov chain monte carlo; hamiltonian monte carlo; langevin; gaussian process*; "
        "graphical model*; probabilistic model*; probabilistic inference; "
        "probabilistic programming; bayesian network*; posterior*; latent variable*; "
        "expectation maximization; em algorithm; mixture model*; mixture of gaussians; "
        "gaussian mixture*; dirichlet; topic model*; latent dirichlet; lda; hidden markov*; hmm; "
        "hmms; uncertainty quantification; uncertainty estimation; predictive uncertainty; "
        "epistemic uncertainty; aleatoric; conformal prediction; conformal inference; "
        "belief propagation; sequential monte carlo; particle filter*; kalman*; "
        "stochastic process*; point process*; hawkes; density estimation; kernel density; "
        "nonparametric; non parametric; approximate inference; elbo; evidence lower bound; "
        "markov random field*; mrf; mrfs; conditional random field*; crf; crfs; factor graph*; "
        "exponential famil*; stochastic variational; expectation propagation; gibbs; "
        "importance sampling; stein variational; maximum likelihood; marginal likelihood; "
        "variational; indian buffet; chinese restaurant; bayesian optimization; copula*; "
        "probabilistic circuit*; sum product network*; normalizing constant; partition function; "
        "variational autoencoder*; gp; gps",
        "probabilistic; conformal; monte carlo; likelihood*; sampling; sampler*; uncertaint*; "
        "prior; priors; mixture*; gaussian; stochastic; probability; probabilities; calibration; "
        "calibrated; random variable*; message passing; epistemic",
    ),
    "graph-learning": Cues(
        "graph neural network*; gnn; gnns; gcn; gcns; graph convolution*; "
        "graph convolutional network*; node classification; link prediction; node embedding*; "
        "graph embedding*; graph representation*; graph classification; "
        "knowledge graph embedding*; knowledge graph completion; message passing neural; "
        "graph transformer*; heterogeneous graph*; heterogeneous information network*; "
        "network embedding*; spectral graph; graph attention; graph learning; graph structured; "
        "graph structure*; graph neural; graph pooling; hypergraph*; graph; graphs; subgraph*; "
        "graph based; molecular graph*; dynamic graph*; temporal graph*; graph signal*; "
        "graph mining; community detection; graph matching; node level; edge level; graph level; "
        "graph generation; graph clustering; graph contrastive; message passing; over smoothing; "
        "oversmoothing; graphon*",
        "node; nodes; edges; network; networks; relational; topolog*; vertices; vertex; "
        "neighbor*; neighbour*; connectivity; structural; bipartite; adjacency; knowledge graph*; "
        "scene graph*; factor graph*",
    ),
    "deep-learning-architectures": Cues(
        "attention mechanism*; self attention; multi head attention; cross attention; "
        "recurrent neural network*; recurrent network*; rnn; rnns; lstm*; long short term memory; "
        "gru; grus; neural architecture*; architecture search; nas; mixture of experts; moe; "
        "batch normalization; batch norm; layer normalization; normalization layer*; "
        "residual network*; resnet*; residual connection*; skip connection*; dropout; "
        "activation function*; relu; state space model*; mamba; hypernetwork*; capsule*; "
        "memory network*; neural ode*; neural ordinary differential; weight initialization; "
        "weight decay; backpropagation; back propagation; feedforward network*; "
        "feed forward network*; network architecture*; scaling law*; training dynamics; "
        "vision transformer*; vit; vits; equivariant; equivariance; transformer architecture*; "
        "linear attention; sparse attention; efficient attention; positional encoding*; "
        "positional embedding*; token mixing; mlp mixer; neural network architecture*; "
        "multilayer perceptron*; multi layer perceptron*; hidden unit*; hidden layer*; "
        "deep learning architecture*; loss landscape*; lottery ticket*; width and depth; "
        "infinite width; layer wise; weight sharing; kolmogorov arnold; spiking neural network*",
        "transformer; transformers; attention; neural network; neural networks; deep learning; "
        "architecture; architectures; layer; layers; activation*; convolution*; convolutional; "
        "cnn; cnns; mlp; mlps; dnn; dnns; initialization; pooling; receptive field*; recurrent; "
        "neurons; neuron; deep network*; deep neural network*; convolutional network*; convnet*",
    ),
    "representation-learning": Cues(
        "representation learning; self supervised; self supervision; contrastive; "
        "metric learning; deep metric learning; unsupervised representation*; disentangl*; "
        "feature learning; feature representation*; masked autoencoder*; masked image modeling; "
        "masked image modelling; autoencoder*; auto encoder*; manifold learning; siamese; "
        "triplet loss; dictionary learning; sparse coding; latent representation*; "
        "learned representation*; invariant representation*; joint embedding; embedding space; "
        "feature space; instance discrimination; momentum contrast; simclr; byol; dino; "
        "linear probing; linear probe; representation space; word embedding*; graph embedding*; "
        "node embedding*; knowledge graph embedding*; network embedding*; visual representation*; "
        "unsupervised representation learning; representation similarity; deep hashing; "
        "information bottleneck; slow feature*; independent component*; ica; nonlinear ica; "
        "learned features; feature learning",
        "representation; representations; embedding*; pretraining; pre training; pretrained; "
        "pre trained; latent space*; unsupervised; invariance; invariant; descriptor*; "
        "dimensionality reduction; unsupervised learning; foundation model*; hashing; "
        "feature extraction; feature extractor*",
    ),
    "transfer-meta-continual-learning": Cues(
        "transfer learning; domain adaptation; unsupervised domain adaptation; "
        "domain generalization; domain generalisation; domain shift*; distribution shift*; "
        "dataset shift; covariate shift; label shift; few shot; one shot; zero shot; low shot; "
        "meta learning; meta learner*; meta reinforcement learning; learning to learn; continual; "
        "lifelong; incremental learning; class incremental; task incremental; "
        "catastrophic forgetting; multi task; multitask; knowledge transfer; out of distribution; "
        "ood; test time adaptation; test time training; source domain*; target domain*; "
        "cross domain; domain adaptive; domain invariant; unseen domain*; unseen class*; "
        "open set; open world; novel class*; novel categor*; generalized zero shot; domain gap; "
        "domain discrepancy; transferable representation*; prompt tuning; parameter efficient; "
        "adapter*; transferability",
        "domain; domains; generalize; generalizes; generalization; generalise; unseen; "
        "downstream; adapt; adapts; adapting; adaptive; adaptation; transfer; transfers; "
        "transferring; transferable; meta; forgetting; new tasks; task agnostic; sim to real; "
        "sim2real; experience replay; rehearsal; episodic memory; generalizable; generalisable; "
        "pretrained; pre trained; fine tuning; finetuning; fine tune",
    ),
    "trustworthy-ml": Cues(
        "fairness; unfair*; fair machine learning; fair classification; fair representation*; "
        "fair clustering; fair ranking; fair allocation; algorithmic bias; bias mitigation; "
        "debias*; discriminatory; demographic parity; equalized odds; group fairness; "
        "individual fairness; differential privacy; differentially private; privacy*; dp sgd; "
        "federated*; membership inference; model inversion; machine unlearning; unlearning; "
        "ai safety; safe reinforcement learning; safe rl; safe exploration; llm safety; "
        "safety alignment; trustworthy; trustworthiness; accountability; accountable; ethics; "
        "ethical; societal; social impact; responsible ai; toxicity; toxic; harmful; harms; "
        "watermark*; copyright; deepfake*; deep fake*; misinformation; secure multiparty; "
        "secure aggregation; homomorphic; confidential*; sensitive attribute*; "
        "protected attribute*; protected group*; gender bias; social bias*; stereotyp*; "
        "value alignment; ai alignment; auditing; neural network verification; "
        "verification of neural; data leakage; anonymi*; de identification; hate speech; "
        "red teaming; jailbreak*; model stealing; data protection; right to be forgotten; "
        "private learning; private data",
        "fair; bias; biases; biased; safe; safety; security; secure; private; trust; reliable; "
        "reliability; transparency; transparent; misuse; risk*; sensitive; equitable; equity; "
        "demographic*; gender; race; racial; spurious; shortcut*; leakage; regulation*; "
        "alignment; robustness; discrimination; legal",
    ),
    "adversarial-robustness": Cues(
        "adversarial example*; adversarial attack*; adversarial robustness; "
        "adversarial perturbation*; adversarial training; adversarially; adversarial defense*; "
        "adversarial noise; adversarial vulnerability; adversarial machine learning; "
        "adversarial patch*; adversarial image*; certified robustness; certifiably robust; "
        "certified defense*; randomized smoothing; robustness certification; backdoor*; trojan*; "
        "data poisoning; poisoning; poison*; evasion attack*; black box attack*; "
        "white box attack*; transfer attack*; transferable attack*; attack; attacks; attacker*; "
        "attacking; defense; defenses; defence*; spoofing; malware; intrusion detection; "
        "model stealing; model extraction; jailbreak*; robustness to adversarial; "
        "adversarial robust*; common corruptions; robustness verification; membership inference",
        "adversarial; adversary; adversaries; perturbation*; robustness; lipschitz; corruption*; "
        "vulnerab*; threat*; malicious; imperceptible; stealth*; distributionally robust; "
        "worst case",
    ),
    "interpretability": Cues(
        "interpretab*; explainab*; explainable ai; xai; explanation*; saliency map*; "
        "saliency method*; feature attribution*; attribution*; shapley value*; shap; lime; "
        "counterfactual explanation*; concept based; concept bottleneck*; concept activation*; "
        "mechanistic interpretability; circuits; probing; feature importance; rule extraction; "
        "human understandable; understanding deep; understanding neural; model explanation*; "
        "post hoc; self explaining; rationale*; attention map*; class activation map*; grad cam; "
        "feature visualization; network dissection",
        "explain; explaining; explains; interpret; interpreting; interpreted; transparency; "
        "transparent; visualiz*; mechanistic; probe; probes; faithful*; black box; prototype*; "
        "understand; understanding; insight*; why; concept*; trust",
    ),
    "multi-agent-game-theory": Cues(
        "multi agent; multiagent; game theory; game theoretic; game theoretical; nash*; "
        "equilibri*; mechanism design; auction*; social choice; voting; vote; votes; voter*; "
        "election*; fair division; cake cutting; envy*; coalition*; cooperative game*; "
        "stackelberg; matching market*; stable matching; bargaining; negotiat*; price of anarchy; "
        "congestion game*; security game*; normal form game*; extensive form; poker; zero sum; "
        "general sum; marl; mean field game*; strategyproof*; strategy proof*; "
        "incentive compatible; truthful; truthfulness; hedonic; fictitious play; "
        "no regret learning; principal agent; peer prediction; information design; "
        "kidney exchange; emergent communication; ad hoc teamwork; indivisible; chores; "
        "social welfare; proportional representation; approval voting; agent based; payoff*; "
        "bidder*; participatory budgeting; multi winner; committee selection; "
        "facility location game*; algorithmic game theory; computational social choice; "
        "shapley value*; core stability; stable roommate*; school choice; fair allocation; "
        "resource allocation; team formation; opponent model*; self play; "
        "multi robot coordination; decentralized coordination; double oracle",
        "agents; agent; games; game; market*; pricing; economic*; allocation*; cooperative; "
        "cooperation; strategic*; incentive*; utility; utilities; welfare; players; player; "
        "opponent*; seller*; buyer*; preferences; coordination; consensus; goods; teammate*; "
        "team*; contract*; persuasion; tournament*; committee*; competition; decentralized; "
        "negotiation",
    ),
    "knowledge-reasoning-planning": Cues(
        "knowledge representation; first order logic; description logic*; ontology; ontologies; "
        "ontological; answer set programming; answer set*; asp; logic programming; "
        "logic program*; prolog; datalog; satisfiability; sat solver*; sat; maxsat; max sat; smt; "
        "constraint satisfaction; constraint programming; csp; csps; constraint solver*; "
        "automated planning; ai planning; classical planning; planning domain*; pddl; htn; "
        "hierarchical task network*; heuristic search; best first search; "
        "monte carlo tree search; mcts; tree search; knowledge graph*; knowledge base*; "
        "commonsense; common sense; argumentation; belief revision; belief change; non monotonic; "
        "nonmonotonic; epistemic; modal logic*; temporal logic*; ltl; ctl; model checking; "
        "theorem prov*; automated reasoning; neuro symbolic; neurosymbolic; "
        "inductive logic programming; program synthesis; formal verification; formal methods; "
        "logic; logics; deductive; deduction; abduct*; default logic; circumscription; "
        "query answering; knowledge compilation; propositional; scheduling; combinatorial search; "
        "qualitative spatial; spatial reasoning; temporal reasoning; rule learning; decidab*; "
        "axiom*; bdi; goal recognition; plan recognition; action language*; situation calculus; "
        "model counting; pathfinding; path finding; multi agent path finding; mapf; "
        "symbolic reasoning; logical reasoning; causal reasoning; multi hop reasoning; "
        "reasoning about; strips; planning problem*; planning task*; constraint optimization; "
        "weighted model counting; bounded model checking; dynamic epistemic; belief base*; "
        "conditional logic*; fuzzy logic; rough set*; formal concept analysis; expert system*",
        "reasoning; logical; symbolic; planning; planner*; plan; plans; schedule*; search; "
        "knowledge; rule*; rule based; np complete; np hard; complexity of; solver*; semantics; "
        "belief*; heuristic*; routing; completeness; queries; query; formal*; entailment; "
        "boolean; constraint*; multi hop; puzzle*",
    ),
    "causal-inference": Cues(
        "causal*; causality; causation; counterfactual*; treatment effect*; "
        "heterogeneous treatment; average treatment; structural causal model*; scm; "
        "instrumental variable*; confound*; do calculus; interventional; propensity score*; "
        "uplift; observational data; observational stud*; randomized controlled; "
        "backdoor adjustment; backdoor criterion; front door; invariant causal; "
        "off policy evaluation; causal structure learning; causal discovery; causal effect*; "
        "causal graph*",
        "intervention*; treatment*; dag; dags; structure learning; mediation; identifiab*; "
        "spurious; randomized experiment*; policy evaluation",
    ),
    "time-series": Cues(
        "time series; timeseries; forecasting; forecast; forecasts; temporal point process*; "
        "spatio temporal; spatiotemporal; traffic forecasting; traffic prediction; "
        "traffic flow prediction; trajectory prediction; motion forecasting; sequential data; "
        "data stream*; streaming data; stream mining; concept drift; time series anomaly; "
        "physiological signal*; stock*; load forecasting; weather forecasting; demand prediction; "
        "demand forecasting; irregularly sampled; event sequence*; arima; temporal data; "
        "multivariate time; sequence prediction; temporal dependenc*; long term dependenc*; "
        "sequence modeling; sequence modelling; temporal convolutional network*",
        "temporal; sequence; sequences; sequential; historical; trend*; periodic*; seasonal*; "
        "dynamical system*; recurrent; longitudinal; multivariate; eeg; ecg; sensor data; "
        "signal processing; signal; signals; financial; electricity",
    ),
    "information-retrieval-recommendation": Cues(
        "information retrieval; retrieval; recommendation*; recommender*; "
        "collaborative filtering; click through; ctr; learning to rank; reranking; re ranking; "
        "search engine*; web search; dense retrieval; document retrieval; passage retrieval; "
        "image retrieval; video retrieval; cross modal retrieval; text retrieval; product search; "
        "hashing; e commerce; ecommerce; session based; sequential recommendation; "
        "user interest*; implicit feedback; cold start; nearest neighbor search; "
        "similarity search; approximate nearest neighbor*; question retrieval; "
        "conversational search; query expansion; query rewriting; advertising; ads; advertis*; "
        "user engagement; point of interest; poi; learning to hash; retrieval augmented; recommend",
        "retriev*; ranking; rank; ranker*; user preference*; personalized; personalised; query; "
        "queries; relevance; matrix factorization; items; item; search; click*; users; user; "
        "index*; popularity; online platform*; nearest neighbor*",
    ),
    "ai-for-science-health": Cues(
        "medical; medicine; clinical; clinician*; health; healthcare; health care; patient*; "
        "disease*; hospital*; cancer*; tumor*; tumour*; lesion*; mri; ct; ct scan*; x ray; xray; "
        "radiolog*; histopatholog*; patholog*; biomedical; biology; bioinformatic*; protein*; "
        "molecul*; drug*; chemistry; chemical*; genom*; gene; genes; gene expression; dna; rna; "
        "single cell; cell type*; materials science; material discovery; material design; "
        "crystal*; climate; astronom*; astrophysic*; cosmolog*; quantum; epidemi*; covid*; "
        "pandemic; ecolog*; agricultur*; crop*; pde; pdes; partial differential equation*; "
        "physics informed; scientific discovery; scientific computing; physical system*; "
        "fluid dynamics; turbulence; seismic; ultrasound; retinal; ophthalm*; dermatolog*; "
        "skin lesion*; electronic health record*; ehr; ehrs; mortality; icu; alzheimer*; "
        "parkinson*; diabet*; cardiac; chemical reaction*; retrosynthesis; catalys*; enzyme*; "
        "antibod*; power grid*; medical imaging; organ segmentation; organs; biomarker*; therap*; "
        "mental health; wildlife; biodiversity; hydrolog*; wildfire*; air quality; pollution; "
        "mass spectr*; spectroscop*; microscop*; neuroimaging; surgical; surgery; ecg; eeg; "
        "brain tumor*; radiotherapy; mammogra*; chest x ray; covid 19; molecular dynamics; "
        "density functional; weather prediction; climate model*; earth system; remote sensing; "
        "genetic",
        "diagnos*; cells; biological; physics; science; sciences; scientific; scientist*; "
        "weather; ocean*; materials; energy; sustainab*; battery; batteries; species; flood*; "
        "heart; simulation*; experiment*; discovery; rehabilitation",
    ),
    "neuroscience-cognitive-science": Cues(
        "neuroscience; computational neuroscience; neural coding; neural code; neuronal; spiking; "
        "spike*; cortex; cortical; visual cortex; brain; brains; fmri; meg; synap*; hippocamp*; "
        "dendrit*; neural population*; population coding; neural activity; neural recording*; "
        "cognitive; cognition; cognitive science; psycholog*; human learning; human behavior; "
        "human behaviour; human memory; human vision; human perception; retina; neurophysiolog*; "
        "motor cortex; brain computer interface*; bci; place cell*; grid cell*; firing rate*; "
        "neuromorphic; biologically plausible; biologically inspired; biological neuron*; "
        "biological neural; rat; rats; monkey*; primate*; mice; psychophysic*; working memory; "
        "theory of mind; neural dynamics; connectome; electrophysiolog*; calcium imaging; "
        "hebbian; stdp; visual system; olfactory; auditory cortex; eeg; neural circuit*; "
        "neurons in; cerebellum; basal ganglia; dopamine; songbird*; receptive fields of; "
        "human judgment*; human subjects; eye movement*; saccad*; infant*",
        "neurons; neuron; biological; human; humans; behavior; behaviour; behavioral; "
        "behavioural; learning rule*; perception; perceptual; memory; oscillat*; animal*; mouse; "
        "children; sensorimotor; receptive field*; auditory",
    ),
    "efficient-ml-systems": Cues(
        "model compression; network compression; neural network compression; compression; "
        "compressed model*; compressing; pruning; pruned; prune; quantization; quantized; "
        "quantize; quantisation; knowledge distillation; distillation; efficient inference; "
        "inference acceleration; fpga*; tpu*; accelerator*; edge device*; edge computing; "
        "mobile device*; on device; microcontroller*; binary neural network*; binarized; "
        "binarization; low bit; mixed precision; memory efficient; communication efficient; "
        "communication cost*; distributed training; data parallel; model parallel; automl; "
        "automated machine learning; auto ml; hyperparameter optimization; hyperparameter tuning; "
        "hyperparameter search; hyper parameter optimization; neural architecture search; "
        "architecture search; nas; compiler*; dataset distillation; token pruning; token merging; "
        "early exit*; low rank adaptation; resource constrained; memory footprint; "
        "efficient training; efficient transformer*; inference speed; inference cost*; "
        "inference latency; sparse training; structured sparsity; parameter efficient",
        "efficient; efficiency; computational efficiency; computationally efficient; "
        "energy efficient; energy efficiency; speedup; federated learning; latency; throughput; "
        "parallel; parallelism; parallelization; distributed; speed up; accelerate; accelerating; "
        "acceleration; computational cost*; compute; sparsity; sparse; real time; scalab*; "
        "scalable; caching; cache; runtime; mobile; hardware; flops; hyperparameter*; "
        "lightweight; light weight; gpu; gpus",
    ),
    "data-mining": Cues(
        "data mining; knowledge discovery; pattern mining; frequent pattern*; frequent itemset*; "
        "itemset*; association rule*; sequential pattern*; clustering; anomaly detection; "
        "outlier detection; fraud*; social network*; social media; community detection; "
        "network analysis; web mining; text mining; tabular data; tabular; big data; "
        "user behavior*; user behaviour*; graph mining; crowdsourc*; entity resolution; "
        "data cleaning; data integration; data streams; stream mining; online social; twitter; "
        "weibo; reddit; point of interest; poi; co clustering; subspace clustering; biclustering; "
        "database*; sql; missing data; imputation; urban computing; spatial data; "
        "spatio temporal data; trajectory data; heterogeneous information network*; "
        "knowledge discovery; opinion mining; process mining; information diffusion; "
        "influence maximization; rumor detection; spam detection; churn; customer*; "
        "click through; data analytics; mining",
        "anomaly; anomalies; anomalous; outlier*; cluster*; web; urban; city; cities; mobility; "
        "transportation; logistics; knowledge graph*; data analysis; analytics; mined; social; "
        "users; e commerce; recommendation*",
    ),
    "human-ai-interaction": Cues(
        "human ai; human computer interaction; hci; user study; user studies; human in the loop; "
        "humans in the loop; human robot interaction; hri; human robot collaboration; "
        "human ai collaboration; human ai teaming; teaming; crowd workers; interaction design; "
        "user interface*; human centered; human centred; human factors; human subject*; "
        "cognitive load; usability; accessibility; assistive; virtual reality; augmented reality; "
        "mixed reality; vr; xr; emotion*; affective; empathy; empathetic; social robot*; "
        "shared autonomy; user experience; quality of experience; qoe; human aware; "
        "socially aware; intelligent tutoring; tutoring; education*; educational; "
        "human preference*; explanation interface*; mixed initiative; co creation; "
        "human machine interaction; human machine interface*; brain computer interface*; "
        "human operator*; personality; persuasive; human like; user feedback; "
        "interactive learning; interactive machine learning",
        "human; humans; users; user; people; persons; participants; interaction*; interactive; "
        "interface*; collaborative; collaboration; crowdsourc*; personaliz*; personalis*; "
        "user model*; immersive; wearable*; creativity; creative; artistic; artwork*; students; "
        "gesture*; eye tracking; gaze; haptic*; teleoperat*; human feedback; decision support; "
        "trust in; conversational agent*; intention*; human motion; social",
    ),
    "machine-learning": Cues(
        "supervised learning; semi supervised; weakly supervised; weak supervision; "
        "active learning; multi label; multilabel; multi instance; multiple instance; "
        "support vector*; svm; svms; kernel method*; kernel machine*; boosting; adaboost; "
        "random forest*; decision tree*; gradient boosting; xgboost; k means; "
        "spectral clustering; dimensionality reduction; feature selection; matrix factorization; "
        "matrix completion; tensor decomposition; tensor completion; tensor factorization; "
        "noisy label*; label noise; learning with noisy; class imbalance; imbalanced; "
        "long tailed; long tail; positive unlabeled; pu learning; label proportion*; "
        "partial label*; structured prediction; logistic regression; k nearest; "
        "nearest neighbor classifier*; self training; pseudo label*; co training; "
        "learning from crowds; ordinal regression; multi view learning; multi view clustering; "
        "multiview learning; subspace clustering; sparse learning; ensemble learning; "
        "ensemble method*; cross validation; model selection; linear regression; kernel learning; "
        "multiple kernel; label distribution; extreme classification; learning from label*; "
        "instance weighting; sample selection; semi supervised learning; unsupervised learning; "
        "online learning; clustering",
        "labels; labeled; labelled; unlabeled; unlabelled; supervised; unsupervised; kernel*; "
        "ensemble*; tensor*; low rank; overfitting; regularization; regularizer*; "
        "data augmentation; machine learning; learning algorithm*; predictive; prediction model*; "
        "classify; classifying; categorization; metric learning; dictionary learning; sparse; "
        "classification; classifier*; regression",
    ),
}

# Phrases that would otherwise be misread as a cue; they match (longest wins) and score 0.
NEUTRAL = (
    "state of the art; state of the arts; state of art; in other words; inductive bias*; "
    "causal mask*; causal attention; causal convolution*; causal transformer*; "
    "hard negative mining; negative mining; open source; source code; closed form; "
    "real world; model agnostic; art; face of; faced; facing; in the face; "
    "code is available; code and data; data are available; publicly available; "
    "well known; in particular; on the other hand; to this end; "
    "game changer; in terms of; at the same time"
)

# Home area of a venue, used only when the text is not conclusive (see module docstring).
VENUE_PRIORS: dict[str, str] = {
    **dict.fromkeys(("icra", "iros", "rss", "corl", "humanoids"), "robotics"),
    **dict.fromkeys(("cvpr", "iccv", "eccv", "wacv", "bmvc", "accv", "icip"), "computer-vision"),
    **dict.fromkeys(("3dv", "siggraph", "siggraphasia", "eurographics", "sgp"),
                    "3d-vision-graphics"),
    **dict.fromkeys(("acl", "naacl", "emnlp", "coling", "eacl", "aacl", "conll", "tacl",
                     "lrec"), "natural-language-processing"),
    **dict.fromkeys(("colm",), "large-language-models"),
    **dict.fromkeys(("interspeech", "icassp", "ismir"), "speech-audio"),
    **dict.fromkeys(("acmmm", "icmr", "icmi"), "multimodal-learning"),
    **dict.fromkeys(("colt", "alt"), "learning-theory"),
    **dict.fromkeys(("uai",), "probabilistic-methods"),
    **dict.fromkeys(("kdd", "icdm", "sdm", "pakdd", "ecmlpkdd"), "data-mining"),
    **dict.fromkeys(("www", "sigir", "recsys", "wsdm", "cikm"),
                    "information-retrieval-recommendation"),
    **dict.fromkeys(("aamas", "ec", "sagt", "wine"), "multi-agent-game-theory"),
    **dict.fromkeys(("icaps", "kr", "ijcar"), "knowledge-reasoning-planning"),
    **dict.fromkeys(("miccai", "midl", "chil", "mlhc", "ai4x", "ismb"), "ai-for-science-health"),
    **dict.fromkeys(("cosyne", "cogsci"), "neuroscience-cognitive-science"),
    **dict.fromkeys(("automl", "mlsys"), "efficient-ml-systems"),
    **dict.fromkeys(("chi", "uist", "iui", "hri", "cscw"), "human-ai-interaction"),
    **dict.fromkeys(("facct", "aies"), "trustworthy-ml"),
}


@dataclass(frozen=True)
class Derivation:
    """Why a paper got its topics: ``source`` is text, text+prior, prior or fallback."""

    topics: tuple[str, ...]
    scores: tuple[tuple[str, float], ...]
    source: str


_NON_WORD = re.compile(r"[^a-z0-9]+")
_ORDER = {t.slug: i for i, t in enumerate(TOPICS)}
_YEAR_SUFFIX = re.compile(r"-?(19|20)\d\d$")
_CACHE_LIMIT = 200_000


def normalize(text: str) -> str:
    """Lowercase words separated by single spaces: the form cues and text are matched in."""
    return _NON_WORD.sub(" ", text.lower()).strip()


def _phrases(spec: str) -> Iterable[str]:
    for raw in spec.split(";"):
        phrase = normalize(raw)
        if phrase:
            yield phrase + "*" if raw.strip().endswith("*") else phrase


def _trie_regex(phrases: Iterable[str]) -> str:
    """One alternation shaped like a trie: the regex engine never re-tries a shared prefix,
    and at each branch longer continuations are tried before the phrase ends."""
    trie: dict = {}
    for phrase in phrases:
        node = trie
        for ch in phrase:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [re.escape(ch) + emit(child) for ch, child in sorted(node.items())
                if ch not in ("", "*")]
        if "*" in node:
            alts.append("[a-z0-9]*")
        if "" in node:
            alts.append("")
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(trie)


class _Matcher:
    """The compiled cue table: one regex for all cues, and the topic weights of a match."""

    def __init__(self, cues: dict[str, Cues], neutral: str) -> None:
        unknown = set(cues) - set(_ORDER)
        if unknown:
            raise ValueError(f"cues for topics not in the taxonomy: {sorted(unknown)}")
        exact: dict[str, dict[str, int]] = {}
        stems: dict[str, dict[str, int]] = {}
        for slug, spec in cues.items():
            for text, weight in ((spec.strong, STRONG), (spec.weak, WEAK)):
                for phrase in _phrases(text):
                    table, key = ((stems, phrase[:-1]) if phrase.endswith("*")
                                  else (exact, phrase))
                    per_topic = table.setdefault(key, {})
                    per_topic[slug] = max(per_topic.get(slug, 0), weight)
        self._neutral = set(_phrases(neutral))
        for phrase in self._neutral:
            exact.setdefault(phrase, {})
        self._exact = exact
        self._stems = stems
        self._stem_lengths = sorted({len(s) for s in stems})
        self._cache: dict[str, tuple[tuple[str, int], ...]] = {}
        phrases = [*exact, *(stem + "*" for stem in stems)]
        # Text is " " + normalized + " ": a cue starts after a space and ends before one.
        self.pattern = re.compile(" (" + _trie_regex(phrases) + ")(?= )")

    def hits(self, found: str) -> tuple[tuple[str, int], ...]:
        """(topic, weight) of a matched phrase: its own entry plus every ``stem*`` it extends."""
        cached = self._cache.get(found)
        if cached is not None:
            return cached
        merged: dict[str, int] = {}
        if found not in self._neutral:
            merged.update(self._exact.get(found, {}))
            for size in self._stem_lengths:
                if size > len(found):
                    break
                if " " in found[size:]:
                    continue
                for slug, weight in self._stems.get(found[:size], {}).items():
                    merged[slug] = max(merged.get(slug, 0), weight)
        result = tuple(merged.items())
        if len(self._cache) < _CACHE_LIMIT:
            self._cache[found] = result
        return result

    def score(self, scores: dict[str, float], text: str, factor: int,
              cap: float = math.inf) -> None:
        """Add ``factor`` x weight of each distinct cue in ``text``, at most ``cap`` a topic."""
        if not text:
            return
        field: dict[str, float] = {}
        for found in set(self.pattern.findall(" " + text + " ")):
            for slug, weight in self.hits(found):
                field[slug] = field.get(slug, 0) + weight * factor
        for slug, value in field.items():
            scores[slug] = scores.get(slug, 0) + min(value, cap)


@lru_cache(maxsize=1)
def _matcher() -> _Matcher:
    return _Matcher(CUES, NEUTRAL)


def text_scores(title: str, abstract: str, keywords: Sequence[str] = (),
                primary_area: str = "") -> dict[str, float]:
    """Evidence per topic from the paper's own words (no venue, no fallback)."""
    matcher = _matcher()
    scores: dict[str, float] = {}
    matcher.score(scores, normalize(title or ""), TITLE_WEIGHT)
    matcher.score(scores, normalize(abstract or ""), ABSTRACT_WEIGHT, ABSTRACT_CAP)
    # Double space between labels: no cue spans two keywords.
    labels = "  ".join(normalize(k) for k in (*keywords, primary_area or "") if k)
    matcher.score(scores, labels, LABEL_WEIGHT)
    return scores


def venue_prior(conference: str) -> str | None:
    """The home area of a venue slug (``nips``, ``ICRA``, ``cvpr2024`` all work), if any."""
    slug = canonical_slug(_YEAR_SUFFIX.sub("", (conference or "").strip().lower()))
    return VENUE_PRIORS.get(slug)


def explain(title: str, abstract: str, keywords: Sequence[str] = (), primary_area: str = "",
            conference: str = "") -> Derivation:
    """The topics with the evidence behind them; ``derive_topics`` keeps only the topics."""
    scores = text_scores(title, abstract, keywords, primary_area)
    best = max(scores.values(), default=0)
    prior = venue_prior(conference) if best < CONFIDENT else None
    if prior:
        scores[prior] = scores.get(prior, 0) + PRIOR_BONUS
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], _ORDER[kv[0]]))
    floor = max(THRESHOLD, RELATIVE * ranked[0][1]) if ranked else THRESHOLD
    kept = tuple(slug for slug, score in ranked[:MAX_TOPICS] if score >= floor)
    if not kept:
        return Derivation((FALLBACK,), tuple(ranked), "fallback")
    if prior and prior in kept:
        source = "prior" if len(kept) == 1 and best < THRESHOLD else "text+prior"
    else:
        source = "text"
    return Derivation(kept, tuple(ranked), source)


def derive_topics(title: str, abstract: str, keywords: Sequence[str], primary_area: str,
                  conference: str) -> list[str]:
    """1 to 3 taxonomy slugs, best first; never empty (see the module docstring)."""
    return list(explain(title, abstract, keywords, primary_area, conference).topics)
