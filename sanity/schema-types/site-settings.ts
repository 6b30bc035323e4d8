import { defineArrayMember, defineField, defineType } from 'sanity'

import { cnpjProblem } from '../../lib/cnpj'
import { imageField, requiredString } from './objects'

const SECTION_ANCHORS = [
  { title: 'Sobre', value: 'sobre' },
  { title: 'Como Funciona', value: 'como-funciona' },
  { title: 'Tecnologia', value: 'tecnologia' },
  { title: 'Benefícios', value: 'beneficios' },
  { title: 'Contato', value: 'contato' },
]

export const siteSettingsType = defineType({
  name: 'siteSettings',
  title: 'Configurações do site',
  type: 'document',
  groups: [
    { name: 'brand', title: 'Marca e navegação', default: true },
    { name: 'contact', title: 'Contato' },
    { name: 'footer', title: 'Rodapé' },
    { name: 'legal', title: 'Dados legais (LGPD)' },
    { name: 'seo', title: 'SEO' },
  ],
  fields: [
    { ...requiredString('brandName', 'Nome da marca', 32), group: 'brand' },
    { ...requiredString('tagline', 'Slogan', 48), group: 'brand' },
    {
      ...imageField('logo', 'Logotipo (opcional)', {
        description:
          'Quadrado, mostrado com 40 px no cabeçalho. Sem logotipo, o site usa o ícone padrão.',
      }),
      group: 'brand',
    },
    defineField({
      name: 'navigation',
      title: 'Navegação',
      description: 'As entradas do menu, na ordem em que aparecem.',
      group: 'brand',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'navItem',
          fields: [
            requiredString('label', 'Texto', 24),
            defineField({
              name: 'anchor',
              title: 'Seção',
              type: 'string',
              options: { list: SECTION_ANCHORS },
              validation: (rule) => rule.required(),
            }),
          ],
          preview: { select: { title: 'label', subtitle: 'anchor' } },
        }),
      ],
      validation: (rule) => rule.required().max(5),
    }),
    { ...requiredString('headerCta', 'Botão do cabeçalho', 24), group: 'brand' },
    defineField({
      name: 'contact',
      title: 'Dados de contato',
      group: 'contact',
      type: 'object',
      fields: [
        defineField({
          name: 'email',
          title: 'E-mail',
          type: 'string',
          validation: (rule) => rule.required().email().max(80),
        }),
        requiredString('phone', 'Telefone (como exibido)', 24),
        requiredString('hours', 'Horário de atendimento', 48),
        defineField({
          name: 'whatsappNumber',
          title: 'Número do WhatsApp',
          description: 'Só dígitos, com código do país e DDD: 5512999990000.',
          type: 'string',
          validation: (rule) =>
            rule.required().regex(/^\d{12,13}$/, { name: 'dígitos com DDI e DDD' }),
        }),
        defineField({
          name: 'whatsappGreeting',
          title: 'Mensagem inicial do WhatsApp',
          type: 'text',
          rows: 2,
          validation: (rule) => rule.required().max(300),
        }),
        requiredString('location', 'Localização', 60),
        requiredString('coverage', 'Área de atendimento', 60),
      ],
    }),
    defineField({
      name: 'footer',
      title: 'Rodapé',
      group: 'footer',
      type: 'object',
      fields: [
        defineField({
          name: 'description',
          title: 'Texto de apresentação',
          type: 'text',
          rows: 3,
          validation: (rule) => rule.required().max(240),
        }),
        defineField({
          name: 'legalLinks',
          title: 'Links legais',
          description: 'Os caminhos das páginas legais ("/privacidade", "/termos", "/lgpd"...).',
          type: 'array',
          of: [defineArrayMember({ type: 'link' })],
          // A legal link that goes nowhere is a promise the site does not keep.
          validation: (rule) =>
            rule
              .max(4)
              .custom((links) =>
                (links as { href?: string }[] | undefined)?.some((link) =>
                  link.href?.startsWith('#'),
                )
                  ? 'Um link legal precisa levar a uma página: use o caminho dela, não "#".'
                  : true,
              ),
        }),
        defineField({
          name: 'socialLinks',
          title: 'Redes sociais',
          type: 'array',
          of: [
            defineArrayMember({
              type: 'object',
              name: 'socialLink',
              fields: [
                defineField({
                  name: 'platform',
                  title: 'Rede',
                  type: 'string',
                  options: {
                    list: [
                      { title: 'LinkedIn', value: 'linkedin' },
                      { title: 'Instagram', value: 'instagram' },
                      { title: 'YouTube', value: 'youtube' },
                    ],
                  },
                  validation: (rule) => rule.required(),
                }),
                defineField({
                  name: 'href',
                  title: 'Endereço',
                  type: 'string',
                  validation: (rule) =>
                    rule
                      .required()
                      .max(300)
                      .regex(/^(https:\/\/|#)/, { name: 'https ou #' }),
                }),
              ],
              preview: { select: { title: 'platform', subtitle: 'href' } },
            }),
          ],
          validation: (rule) => rule.max(4),
        }),
      ],
    }),
    defineField({
      name: 'controller',
      title: 'Controlador dos dados',
      description:
        'A empresa responsável pelos dados do formulário (LGPD, art. 5º VI e art. 9º III). Aparece no rodapé e nas páginas legais.',
      group: 'legal',
      type: 'object',
      fields: [
        requiredString('legalName', 'Razão social', 120),
        defineField({
          name: 'cnpj',
          title: 'CNPJ',
          description: 'No formato 00.000.000/0000-00 (aceita o CNPJ alfanumérico).',
          type: 'string',
          // A warning, not an error: only the company has its CNPJ, and the bundled dataset
          // invents none. A wrong one is an error.
          validation: (rule) => [
            rule.required().warning('Informe o CNPJ do controlador (LGPD, art. 9º III).'),
            rule.custom((value) => (value ? (cnpjProblem(value) ?? true) : true)),
          ],
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'dataProtectionOfficer',
      title: 'Encarregado pelo tratamento de dados (DPO)',
      description:
        'LGPD art. 41 e Resolução CD/ANPD nº 18/2024: identidade e contato do encarregado publicados no site. Aparece no rodapé e na página LGPD.',
      group: 'legal',
      type: 'object',
      fields: [
        defineField({
          name: 'name',
          title: 'Nome',
          description:
            'O nome completo da pessoa indicada (ou o nome empresarial e o da pessoa responsável, se for uma empresa).',
          type: 'string',
          // A warning, as the CNPJ: only the company knows who it named; the site shows the
          // e-mail meanwhile, and the bundled dataset names no one.
          validation: (rule) => [
            rule
              .required()
              .warning('Informe o nome do encarregado: a LGPD (art. 41, § 1º) pede a identidade.'),
            rule.max(120),
          ],
        }),
        defineField({
          name: 'email',
          title: 'E-mail',
          type: 'string',
          validation: (rule) => rule.required().email().max(80),
        }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'seo',
      title: 'SEO',
      group: 'seo',
      type: 'object',
      fields: [
        requiredString('title', 'Título da página', 70),
        defineField({
          name: 'description',
          title: 'Descrição para buscadores',
          type: 'text',
          rows: 3,
          validation: (rule) => rule.required().max(170),
        }),
        imageField('shareImage', 'Imagem de compartilhamento (opcional)', {
          description:
            'Usada quando a página é compartilhada (WhatsApp, LinkedIn), cortada em 1200 × 630 px ao redor do hotspot. Sem ela, o site gera uma a partir do título e da imagem do destaque.',
        }),
      ],
    }),
  ],
  preview: { prepare: () => ({ title: 'Configurações do site' }) },
})
