/**
 * Materials-science tools in the style of the platform the golden fixture comes from: atomistic simulations
 * driven by a DPA machine-learning potential (and DFT for electronic structure). Structures and
 * models are passed as file URLs or paths; `executor` and `storage` are the platform's system
 * parameters. `optimize_structure` is the golden fixture's declaration exactly
 * (tests/fixtures/seed-optimize-structure/tools.json), plus a display `title`; the others follow
 * its conventions. Titles carry the Chinese name of each task, as the seed's users write it, so
 * the offline planner (which matches Chinese by character bigrams, no dictionary) can rank a
 * Chinese task against these English declarations.
 */
import type { JsonSchema, ToolDeclaration } from '../../tools/types';

const executor: JsonSchema = { type: 'object', description: 'Executor configuration' };
const storage: JsonSchema = { type: 'object', description: 'Storage configuration' };
const inputStructure: JsonSchema = { type: 'string', description: 'Input structure file URL or path' };
const modelPath: JsonSchema = { type: 'string', description: 'Path to the DPA model file' };
const head: JsonSchema = { type: 'string', description: 'Model head type', default: 'Omat24' };
const vector3 = (description: string, itemType: 'integer' | 'number', fallback: number[]): JsonSchema => ({
  type: 'array',
  description,
  items: itemType === 'integer' ? { type: itemType, minimum: 1 } : { type: itemType },
  minItems: 3,
  maxItems: 3,
  default: fallback,
});
const file = (description: string): JsonSchema => ({ type: 'string', description });

export const MATERIALS_TOOLS: ToolDeclaration[] = [
  {
    name: 'build_bulk_structure',
    title: 'Build bulk structure · 构建晶体结构',
    description:
      'Build a bulk crystal structure from a chemical formula and a prototype lattice, optionally repeated into a supercell; writes it as a CIF file',
    inputSchema: {
      type: 'object',
      required: ['formula', 'crystal_structure'],
      properties: {
        formula: {
          type: 'string',
          description: 'Chemical formula of the primitive cell, e.g. "Cu", "NaCl", "Si"',
        },
        crystal_structure: {
          type: 'string',
          description: 'Prototype lattice',
          enum: [
            'sc',
            'fcc',
            'bcc',
            'hcp',
            'diamond',
            'zincblende',
            'rocksalt',
            'cesiumchloride',
            'fluorite',
            'wurtzite',
          ],
        },
        lattice_constant: {
          type: 'number',
          description: 'Lattice constant a in ångström; omit to use the experimental or estimated value',
          exclusiveMinimum: 0,
        },
        c_over_a: { type: 'number', description: 'c/a ratio for hexagonal lattices', default: 1.633 },
        supercell: vector3('Repetitions of the cell along a, b and c', 'integer', [1, 1, 1]),
        cubic: {
          type: 'boolean',
          description: 'Use the conventional cubic cell instead of the primitive cell',
          default: false,
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        structure: file('URL of the built structure (CIF)'),
        num_atoms: { type: 'integer', description: 'Number of atoms in the cell' },
      },
      required: ['structure', 'num_atoms'],
    },
  },
  {
    name: 'optimize_structure',
    title: 'Optimize (relax) structure · 结构优化（几何优化、结构弛豫）',
    description: 'Perform geometry optimization of a crystal structure with a DPA model',
    inputSchema: {
      type: 'object',
      required: ['input_structure', 'model_path'],
      properties: {
        input_structure: { type: 'string', description: 'Input structure file URL or path' },
        model_path: { type: 'string', description: 'Path to the DPA model file' },
        head: { type: 'string', description: 'Model head type', default: 'Omat24' },
        force_tolerance: { type: 'number', description: 'Force convergence tolerance', default: 0.01 },
        max_iterations: { type: 'integer', description: 'Maximum optimization iterations', default: 100 },
        relax_cell: { type: 'boolean', description: 'Whether to relax cell parameters', default: false },
        executor: { type: 'object', description: 'Executor configuration' },
        storage: { type: 'object', description: 'Storage configuration' },
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        optimized_structure: file('URL of the relaxed structure (CIF)'),
        final_energy: { type: 'number', description: 'Total energy of the relaxed structure in eV' },
        converged: {
          type: 'boolean',
          description: 'Whether the force tolerance was reached within max_iterations',
        },
      },
      required: ['optimized_structure', 'final_energy', 'converged'],
    },
  },
  {
    name: 'calculate_phonons',
    title: 'Calculate phonons · 计算声子谱',
    description:
      'Calculate phonon dispersion, density of states and harmonic thermal properties with the finite-displacement method and a DPA model',
    inputSchema: {
      type: 'object',
      required: ['input_structure', 'model_path'],
      properties: {
        input_structure: { ...inputStructure, description: 'Relaxed input structure file URL or path' },
        model_path: modelPath,
        head,
        supercell: vector3('Supercell used for the force constants, along a, b and c', 'integer', [2, 2, 2]),
        displacement: {
          type: 'number',
          description: 'Atomic displacement amplitude in ångström',
          default: 0.01,
          exclusiveMinimum: 0,
        },
        band_path: {
          type: 'string',
          description: 'High-symmetry q-point path such as "GXWKGLUWLK"; empty to derive it from the lattice',
          default: '',
        },
        dos_mesh: vector3('q-point mesh for the density of states', 'integer', [20, 20, 20]),
        temperature_range: {
          type: 'array',
          description: 'Minimum, maximum and step of the temperature grid for thermal properties, in kelvin',
          items: { type: 'number', minimum: 0 },
          minItems: 3,
          maxItems: 3,
          default: [0, 1000, 10],
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        band_structure: file('URL of the phonon band structure data'),
        dos: file('URL of the phonon density of states'),
        thermal_properties: file('URL of free energy, entropy and heat capacity versus temperature'),
        has_imaginary_modes: {
          type: 'boolean',
          description: 'True when some frequency is imaginary (the structure is dynamically unstable)',
        },
      },
      required: ['band_structure', 'dos', 'thermal_properties', 'has_imaginary_modes'],
    },
  },
  {
    name: 'calculate_band_structure',
    title: 'Calculate band structure · 计算能带结构',
    description:
      'Calculate the electronic band structure and density of states of a crystal with density functional theory',
    inputSchema: {
      type: 'object',
      required: ['input_structure'],
      properties: {
        input_structure: inputStructure,
        functional: {
          type: 'string',
          description: 'Exchange-correlation functional',
          enum: ['PBE', 'PBEsol', 'SCAN', 'HSE06'],
          default: 'PBE',
        },
        kpoint_spacing: {
          type: 'number',
          description: 'k-point spacing for the self-consistent run, in 1/ångström',
          default: 0.03,
          exclusiveMinimum: 0,
        },
        band_path: {
          type: 'string',
          description: 'High-symmetry k-point path such as "GXWKGLUWLK"; empty to derive it from the lattice',
          default: '',
        },
        spin_polarized: { type: 'boolean', description: 'Run a spin-polarized calculation', default: false },
        spin_orbit_coupling: { type: 'boolean', description: 'Include spin-orbit coupling', default: false },
        energy_cutoff: {
          type: 'number',
          description: 'Plane-wave cutoff energy in eV',
          default: 520,
          exclusiveMinimum: 0,
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        band_structure: file('URL of the band energies along the path'),
        dos: file('URL of the total and projected density of states'),
        band_gap: { type: 'number', description: 'Band gap in eV (0 for a metal)' },
        is_direct_gap: { type: 'boolean', description: 'Whether the gap is direct' },
        fermi_energy: { type: 'number', description: 'Fermi energy in eV' },
      },
      required: ['band_structure', 'dos', 'band_gap', 'is_direct_gap', 'fermi_energy'],
    },
  },
  {
    name: 'run_molecular_dynamics',
    title: 'Run molecular dynamics · 分子动力学模拟',
    description:
      'Run a molecular dynamics simulation of a structure with a DPA model in the NVE, NVT or NPT ensemble',
    inputSchema: {
      type: 'object',
      required: ['input_structure', 'model_path'],
      properties: {
        input_structure: inputStructure,
        model_path: modelPath,
        head,
        ensemble: {
          type: 'string',
          description: 'Thermodynamic ensemble',
          enum: ['NVE', 'NVT', 'NPT'],
          default: 'NVT',
        },
        temperature: {
          type: 'number',
          description: 'Target temperature in kelvin',
          default: 300,
          minimum: 0,
        },
        pressure: { type: 'number', description: 'Target pressure in bar (NPT only)', default: 1.0 },
        timestep: {
          type: 'number',
          description: 'Integration time step in femtoseconds',
          default: 1.0,
          exclusiveMinimum: 0,
        },
        num_steps: { type: 'integer', description: 'Number of MD steps', default: 10000, minimum: 1 },
        save_interval: {
          type: 'integer',
          description: 'Write a trajectory frame every this many steps',
          default: 100,
          minimum: 1,
        },
        seed: {
          type: 'integer',
          description: 'Random seed for the initial velocities; omit for a random one',
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        trajectory: file('URL of the trajectory (extended XYZ)'),
        thermo_log: file('URL of the temperature, pressure and energy log'),
        final_structure: file('URL of the last frame (CIF)'),
      },
      required: ['trajectory', 'thermo_log', 'final_structure'],
    },
  },
  {
    name: 'calculate_elastic_constants',
    title: 'Calculate elastic constants · 计算弹性常数',
    description:
      'Calculate the elastic stiffness tensor and derived moduli of a crystal from stress-strain relations with a DPA model',
    inputSchema: {
      type: 'object',
      required: ['input_structure', 'model_path'],
      properties: {
        input_structure: { ...inputStructure, description: 'Relaxed input structure file URL or path' },
        model_path: modelPath,
        head,
        max_strain: {
          type: 'number',
          description: 'Largest applied strain (fraction)',
          default: 0.01,
          exclusiveMinimum: 0,
          maximum: 0.1,
        },
        num_strains: {
          type: 'integer',
          description: 'Number of strain magnitudes per deformation mode',
          default: 4,
          minimum: 2,
        },
        relax_ions: {
          type: 'boolean',
          description: 'Relax atomic positions in each strained cell',
          default: true,
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        elastic_tensor: {
          type: 'array',
          description: '6×6 stiffness tensor in Voigt notation, GPa',
          items: { type: 'array', items: { type: 'number' }, minItems: 6, maxItems: 6 },
          minItems: 6,
          maxItems: 6,
        },
        bulk_modulus: { type: 'number', description: 'Voigt-Reuss-Hill bulk modulus in GPa' },
        shear_modulus: { type: 'number', description: 'Voigt-Reuss-Hill shear modulus in GPa' },
        youngs_modulus: { type: 'number', description: "Young's modulus in GPa" },
        poisson_ratio: { type: 'number', description: "Poisson's ratio" },
      },
      required: ['elastic_tensor', 'bulk_modulus', 'shear_modulus', 'youngs_modulus', 'poisson_ratio'],
    },
  },
  {
    name: 'calculate_equation_of_state',
    title: 'Calculate equation of state · 计算状态方程',
    description:
      'Fit an equation of state to energies of a structure at scaled volumes with a DPA model; gives the equilibrium volume and bulk modulus',
    inputSchema: {
      type: 'object',
      required: ['input_structure', 'model_path'],
      properties: {
        input_structure: inputStructure,
        model_path: modelPath,
        head,
        volume_range: {
          type: 'array',
          description: 'Smallest and largest volume as fractions of the input volume',
          items: { type: 'number', exclusiveMinimum: 0 },
          minItems: 2,
          maxItems: 2,
          default: [0.94, 1.06],
        },
        num_points: { type: 'integer', description: 'Number of volumes to sample', default: 7, minimum: 4 },
        eos: {
          type: 'string',
          description: 'Equation of state to fit',
          enum: ['birchmurnaghan', 'murnaghan', 'vinet'],
          default: 'birchmurnaghan',
        },
        executor,
        storage,
      },
    },
    outputSchema: {
      type: 'object',
      properties: {
        equilibrium_volume: {
          type: 'number',
          description: 'Volume at the energy minimum, ångström³ per cell',
        },
        equilibrium_energy: { type: 'number', description: 'Energy at the minimum in eV' },
        bulk_modulus: { type: 'number', description: 'Bulk modulus in GPa' },
        eos_plot: file('URL of the energy-volume curve'),
      },
      required: ['equilibrium_volume', 'equilibrium_energy', 'bulk_modulus', 'eos_plot'],
    },
  },
];
